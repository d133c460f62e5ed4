"""The Game protocol: status, who acts, legal actions, attacks' bookkeeping, observation, random play."""

from __future__ import annotations

import pytest

from iwgt.core.errors import IllegalAction, MalformedAction
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.coloured_dice.actions import Charge, EndTurn, Fight, Hero, Move, Rally, React, Shoot
from iwgt.games.coloured_dice.state import CdState

from .kit import GAME, battle, play_random, unit

OBS_KEYS = {
    "game",
    "round",
    "rounds",
    "seat",
    "phase",
    "table",
    "sides",
    "features",
    "objectives",
    "units",
    "awaiting",
    "last_roll",
    "previews",
    "questions",
    "result",
}


def settle_with(st: CdState, face: int) -> CdState:
    """Roll ``face`` on every die and keep every hero point until nothing is pending."""
    for _ in range(500):
        who = GAME.to_move(st)
        if not st.pending or who is None:
            return st
        if who == CHANCE:
            st, _ = GAME.apply(st, ChanceOutcome(face))
        else:
            answers = GAME.legal_actions(st, who)
            keep = [a for a in answers if a == Hero(0)]
            st, _ = GAME.apply(st, keep[0] if keep else answers[-1])
    raise AssertionError("the pending stack never emptied")


def test_initial_status_and_scenarios() -> None:
    """Three shipped scenarios; the first seat's turn of round 1; nothing pending."""
    assert {"skirmish", "battle", "river_crossing"} <= set(GAME.scenario_names())
    st = GAME.initial_state(GAME.load_scenario("skirmish"))
    status = GAME.status(st)
    assert (status.phase, status.turn, status.to_move, status.mover) == ("turn", 1, 0, 0)
    assert GAME.chance_outcomes(st) is None
    card = GAME.scenario_card(GAME.load_scenario("skirmish"))
    assert card.turns == 4 and card.table == '36" x 24"' and card.forces == "4 / 4 units"
    # a battle lasts rounds (CD-AC-01: a round is both sides' turns): the lobby says "(4 rounds)"
    assert card.turn_word == "rounds" and card.to_json()["turn_word"] == "rounds"


def test_observation_has_the_spec_keys() -> None:
    """cd-spec 3: the observation's keys; every unit with its models' centres."""
    st = GAME.initial_state(GAME.load_scenario("battle"))
    obs = GAME.observe(st, 0)
    assert set(obs) == OBS_KEYS
    assert (
        obs["game"] == "coloured-dice"
        and obs["phase"] == "turn"
        and obs["table"] == {"width": 48, "height": 36}
    )
    assert len(obs["sides"]) == 2 and obs["sides"][0]["points"] == st.start_points[0]
    u = obs["units"][0]
    assert len(u["cells"]) == u["models"]
    assert {"tray", "files", "order", "armour", "morale_target", "weapons", "move", "engaged"} <= set(u)
    assert GAME.observe(st, None)["previews"] == []


def test_legal_actions_are_finite_and_end_turn_is_always_offered() -> None:
    """A modest list; only the seat to act gets actions."""
    st = GAME.initial_state(GAME.load_scenario("battle"))
    legal = GAME.legal_actions(st, 0)
    assert EndTurn() in legal
    assert len(legal) < 400
    assert GAME.legal_actions(st, 1) == []


def test_orders_for_another_sides_unit_are_refused() -> None:
    """A seat orders only its own units, and only in its turn."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 30, files=6)])
    with pytest.raises(IllegalAction, match=r"^not your unit \(Spear-wall of the North\)$"):
        GAME.apply(st, Move(1, ((10.0, 27.0),), 180.0))
    with pytest.raises(IllegalAction, match="nothing is being asked"):
        GAME.apply(st, Hero(0))
    with pytest.raises(IllegalAction, match="no die"):
        GAME.apply(st, ChanceOutcome(3))
    with pytest.raises(MalformedAction):
        GAME.apply(st, "move")  # type: ignore[arg-type]


def test_one_attack_per_turn() -> None:
    """CD-AC-02: at most one attack (fight, shot, cast) a unit a turn, though it has an action left."""
    st = battle([unit(0, "archers", 10, 5, files=5), unit(1, "spear_wall", 10, 14, files=6)])
    st, _ = GAME.apply(st, Shoot(0, 1))
    assert st.unit(0).attacked and st.unit(0).actions_left == 1
    st = settle_with(st, 6)
    # the refusal names the rule first, so no verb has to agree with the unit's name
    refusal = r"^CD-AC-02: one attack \(fight, shot or spell\) a turn \(Human archers: already made\)$"
    with pytest.raises(IllegalAction, match=refusal):
        GAME.apply(st, Shoot(0, 1))
    assert not any(isinstance(a, Shoot) for a in GAME.legal_actions(st, 0))
    st, _ = GAME.apply(st, Move(0, ((10.0, 4.0),), 0.0))  # a move is still allowed
    assert st.unit(0).actions_left == 0


def test_engaged_units_cannot_shoot_and_fight_needs_contact() -> None:
    """Designed: a unit in contact may not shoot; CD-FI-01: a fight needs contact."""
    # the archers' tray (10" x 4", open order) has its front at y = 7; the enemy's front is at y = 7 too
    st = battle([unit(0, "archers", 10, 5, files=5), unit(1, "spear_wall", 10, 8, files=6)])
    with pytest.raises(IllegalAction, match=r"^CD-SH: no shooting while engaged \(Human archers: engaged"):
        GAME.apply(st, Shoot(0, 1))
    assert Fight(0, 1) in GAME.legal_actions(st, 0)
    far = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 14, files=6)])
    contact = r"^CD-FI-01: a fight needs contact \(Spearmen of Kaleva and Spear-wall of the North: not in"
    with pytest.raises(IllegalAction, match=contact):
        GAME.apply(far, Fight(0, 1))


def test_charge_then_fight_spends_both_actions() -> None:
    """CD-MS-16: a charge is a move action; the fight is the next action (and the unit's attack). The
    target's reaction (1 die from 4", CD-RE-02) is declined first."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 10.5, files=6)])
    st, _ = GAME.apply(st, Charge(0, 1))
    st, _ = GAME.apply(st, React(False))
    assert Fight(0, 1) in GAME.legal_actions(st, 0)
    st, _ = GAME.apply(st, Fight(0, 1))
    assert st.unit(0).actions_left == 0 and st.unit(0).attacked
    assert GAME.to_move(st) == CHANCE
    assert GAME.status(st).phase == "roll"
    assert GAME.observe(st, 0)["awaiting"]["kind"] == "roll"


def test_rally_needs_a_shaken_unit() -> None:
    """Designed: only a shaken unit rallies."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 30, files=6)])
    with pytest.raises(IllegalAction, match="steady"):
        GAME.apply(st, Rally(0))


def test_random_play_on_the_skirmish_ends_within_a_few_hundred_steps() -> None:
    """Random legal play with seeded dice ends by the rounds limit (4 rounds) or earlier."""
    st = GAME.initial_state(GAME.load_scenario("skirmish"))
    end, steps = play_random(st, seed=7, max_steps=1500)
    assert GAME.is_terminal(end)
    assert steps < 1500
    assert GAME.result(end) is not None
    assert end.round <= 4


def test_random_play_is_deterministic_by_seed() -> None:
    """The same seed plays the same game."""
    st = GAME.initial_state(GAME.load_scenario("skirmish"))
    a, na = play_random(st, seed=3, max_steps=1500)
    b, nb = play_random(st, seed=3, max_steps=1500)
    assert na == nb
    assert GAME.state_to_json(a) == GAME.state_to_json(b)
