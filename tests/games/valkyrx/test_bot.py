"""The heuristic bot with wizards, the Grima, the Sand Worm, portals and lava.

Whole seeded games of the ``sorcery`` scenario check that the bot arms its wizards, casts spells, hides the
Grima after a quarry and sends the worm underground, that every action it issues is legal, and that it never
uses a fact hidden from its seat (its choice is the same in every state ``resample_hidden`` says the seat
cannot tell apart). Small hand-made positions check each rule of thumb on its own.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.protocol import ChanceOutcome, Event, Seat
from iwgt.games.valkyrx.actions import (
    Action,
    AddTroops,
    CastSpell,
    ChooseSpells,
    Conceal,
    ConfirmDeployment,
    EndPhase,
    Move,
    SetQuarry,
    Surface,
    Transport,
    Tunnel,
)
from iwgt.games.valkyrx.bot import PACK_DROP_ORDER, bot_for, choose_pack
from iwgt.games.valkyrx.events import SpellCast
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.scenario import parse_scenario
from iwgt.games.valkyrx.spellbook import default_pack, spells, why_not_choose_spells
from iwgt.games.valkyrx.spells import lava_cells
from iwgt.games.valkyrx.state import Enchantment, ValkyrxState
from iwgt.games.valkyrx.units import unit_types
from iwgt.geometry.hexgrid import Hex, distance, offset_to_hex

GAME = ValkyrxGame()
SEEDS = (1, 2, 3, 4, 5)


# --- whole games ----------------------------------------------------------------------------------------


@dataclass
class Played:
    """One bot-against-bot game: every decision with the state it was taken in, and every event."""

    decisions: list[tuple[ValkyrxState, Seat, Action]]
    events: list[Event]
    final: ValkyrxState


def play(scenario: str, seed: int) -> Played:
    match = Match(GAME, GAME.load_scenario(scenario), SeededDice(seed), seed)
    bots = (bot_for(GAME), bot_for(GAME))
    events = list(match.resolve_chance())
    decisions: list[tuple[ValkyrxState, Seat, Action]] = []
    while not GAME.is_terminal(match.state):
        seat = GAME.to_move(match.state)
        assert seat in (0, 1)
        state = match.state
        action = bots[seat].choose(state, seat)
        decisions.append((state, seat, action))
        events.extend(match.act(seat, action))
    return Played(decisions, events, match.state)


@pytest.fixture(scope="module")
def sorcery() -> dict[int, Played]:
    return {seed: play("sorcery", seed) for seed in SEEDS}


def of_type(played: Played, kind: type) -> list[tuple[Seat, Any]]:
    return [(seat, a) for _, seat, a in played.decisions if isinstance(a, kind)]


def unit_id(state: ValkyrxState, type_id: str) -> int:
    return next(u.id for u in state.units if u.type_id == type_id)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_action_of_the_bot_is_legal(sorcery: dict[int, Played], seed: int) -> None:
    for state, seat, action in sorcery[seed].decisions:
        if isinstance(action, ChooseSpells) and action.spells:  # custom packs are not enumerated
            wizard = state.units[action.unit]
            assert state.phase == "deploy" and wizard.owner == seat
            assert why_not_choose_spells(wizard.type, action.spells, spells()) is None
            continue
        assert action in GAME.legal_actions(state, seat), (state.turn, state.phase, action)


def test_every_action_is_legal_in_the_great_battle_too() -> None:
    played = play("great_battle", 2)
    checked = 0
    for state, seat, action in played.decisions[:: max(1, len(played.decisions) // 150)]:
        if not (isinstance(action, ChooseSpells) and action.spells):
            assert action in GAME.legal_actions(state, seat)
            checked += 1
    assert checked > 50
    assert any(isinstance(e, SpellCast) for e in played.events)


@pytest.mark.parametrize("seed", SEEDS)
def test_wizards_are_armed_at_deployment_then_deployment_is_confirmed(
    sorcery: dict[int, Played], seed: int
) -> None:
    deploy = [(s, a) for st, s, a in sorcery[seed].decisions if st.phase == "deploy"]
    start = sorcery[seed].decisions[0][0]
    wizards = {u.id for u in start.units if u.type.has("wizard")}
    armed = {a.unit for _, a in deploy if isinstance(a, ChooseSpells)}
    assert armed == wizards
    for seat in (0, 1):
        mine = [a for s, a in deploy if s == seat]
        assert isinstance(mine[-1], ConfirmDeployment)
        assert all(isinstance(a, ChooseSpells) for a in mine[:-1])
    # The Light's Master faces Pocâdl and a Master of the Darkness: he takes Cure Plague.
    wulf = unit_id(start, "wulfgeldre")
    pack = next(a.spells for _, a in deploy if isinstance(a, ChooseSpells) and a.unit == wulf)
    assert "cure_plague" in pack and len(pack) == 6


def test_spells_are_cast_in_every_seed(sorcery: dict[int, Played]) -> None:
    by_spell: Counter[str] = Counter()
    for seed, played in sorcery.items():
        casts = [e for e in played.events if isinstance(e, SpellCast)]
        assert casts, f"seed {seed}: no spell cast"
        by_spell.update(e.spell for e in casts)
        assert {s for s, _ in of_type(played, CastSpell)} == {0, 1}, f"seed {seed}: one side never cast"
    assert len(by_spell) >= 8, by_spell  # a variety of spells, not one favourite
    assert "armageddon" not in by_spell  # nobody is desperate in these battles


def test_at_most_one_cast_per_wizard_per_turn(sorcery: dict[int, Played]) -> None:
    for played in sorcery.values():
        per_turn = Counter((st.turn, a.unit) for st, _, a in played.decisions if isinstance(a, CastSpell))
        assert max(per_turn.values()) == 1


def test_the_grima_names_a_quarry_and_conceals(sorcery: dict[int, Played]) -> None:
    for seed, played in sorcery.items():
        grima = unit_id(played.final, "grima")
        quarries = [a for _, a in of_type(played, SetQuarry) if a.unit == grima]
        assert quarries, f"seed {seed}: the Grima never got a quarry"
        assert Conceal(grima) in [a for _, a in of_type(played, Conceal)], f"seed {seed}: she never hid"
        first = next(st for st, _, a in played.decisions if a == quarries[0])
        prey = first.units[quarries[0].target]
        assert prey.type.is_character and prey.owner != first.units[grima].owner
        # The most valuable enemy character on the table then.
        rivals = [u for u in first.units if u.on_table and u.owner == prey.owner and u.type.is_character]
        assert prey.value == max(u.value for u in rivals)


def test_the_sand_worm_burrows_and_strikes_from_below(sorcery: dict[int, Played]) -> None:
    surfaced = 0
    for seed, played in sorcery.items():
        worm = unit_id(played.final, "sand_worm")
        assert Conceal(worm) in [a for _, a in of_type(played, Conceal)], f"seed {seed}: it never burrowed"
        surfaced += sum(1 for _, a in of_type(played, Surface) if a.unit == worm)
        # It never dies of sunstroke while the bot commands it: it burrows before its third turn on the
        # surface (an enemy Command spell may keep it up there, and so may a rout, since a routed unit makes
        # only its compulsory move, VX-03-08: then it is not the bot's to save).
        seized = any(
            state.units[worm].controller is not None or state.units[worm].routed
            for state, _, _ in played.decisions
        )
        assert seized or not any(getattr(e, "why", None) == "sunstroke" for e in played.events)
    assert surfaced >= 3


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_the_bot_never_uses_a_fact_hidden_from_its_seat(sorcery: dict[int, Played], seed: int) -> None:
    """A fresh bot decides the same in the real state and in states with every hidden fact redrawn."""
    rng = random.Random(seed)
    with_secrets = 0
    for state, seat, _ in sorcery[seed].decisions:
        secret = any(
            u.in_play and u.owner != seat and (u.hidden or (u.type.has("wizard") and u.spells))
            for u in state.units
        )
        if not secret:
            continue
        with_secrets += 1
        want = bot_for(GAME).choose(state, seat)
        for _ in range(2):
            other = GAME.resample_hidden(state, seat, lambda n: rng.randrange(n))
            assert bot_for(GAME).choose(other, seat) == want, (state.turn, state.phase, seat)
    assert with_secrets > 20


def test_a_hidden_enemy_is_not_seen_and_does_not_trouble_the_bot(sorcery: dict[int, Played]) -> None:
    hidden_enemy_turns = 0
    for played in sorcery.values():
        for state, seat, _ in played.decisions:
            obs = GAME.observe(state, seat)
            for u in obs["units"]:
                if u["hidden"] and u["owner"] != seat and u["status"] == "active":
                    assert u["cell"] is None
                    hidden_enemy_turns += 1
    assert hidden_enemy_turns > 0  # the games above were played with hidden enemies about


# --- positions ------------------------------------------------------------------------------------------


Placed = tuple[str, tuple[int, int]]


def position(light: Sequence[Placed], dark: Sequence[Placed], first: int = 0) -> ValkyrxState:
    """A 12x9 test board, deployment done (default packs), ``first`` opens turn 1's movement."""
    army = "\n".join(
        f"{side} = [" + ", ".join(f'{{ unit = "{u}", cell = [{c}, {r}] }}' for u, (c, r) in units) + "]"
        for side, units in (("light", light), ("darkness", dark))
    )
    text = (
        'name = "test"\ntitle = "Test position"\nwidth = 12\nheight = 9\n'
        "[deployment.light]\nrows = [0, 8]\n[deployment.darkness]\nrows = [0, 8]\n[army]\n" + army
    )
    state = GAME.initial_state(parse_scenario(text, "test scenario"))
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ChanceOutcome(first + 1))
    return state


def cell(col: int, row: int) -> Hex:
    return offset_to_hex(col, row)


def tweak(state: ValkyrxState, uid: int, **changes: Any) -> ValkyrxState:
    return state.with_unit(replace(state.units[uid], **changes))


def enchant(state: ValkyrxState, *spell: Enchantment) -> ValkyrxState:
    return replace(state, enchantments=(*state.enchantments, *spell))


def to_spells(state: ValkyrxState) -> ValkyrxState:
    """Both seats end their movement without moving: the spells step opens."""
    while state.phase == "movement" and not state.pending:
        state, _ = GAME.apply(state, EndPhase())
    assert state.phase == "spells" and not state.pending, state.phase
    return state


def choose(state: ValkyrxState) -> Action:
    seat = GAME.to_move(state)
    assert seat in (0, 1)
    return bot_for(GAME).choose(state, seat)


def plan(state: ValkyrxState, limit: int = 40) -> list[Action]:
    """The bot's actions for the seat to move until it ends its phase or a die is awaited (each applied)."""
    bot = bot_for(GAME)
    seat = GAME.to_move(state)
    assert seat in (0, 1)
    out: list[Action] = []
    for _ in range(limit):
        action = bot.choose(state, seat)
        out.append(action)
        if isinstance(action, EndPhase):
            return out
        state, _ = GAME.apply(state, action)
        if state.pending:  # a die to roll (the worm's navigation, a prayer): the test looks no further
            return out
    raise AssertionError(f"no EndPhase after {limit} actions: {out}")


def test_choose_pack_trades_for_dismiss_dead_and_cure_plague() -> None:
    types = unit_types()
    wulf, waerloga, circan = types["wulfgeldre"], types["waerloga"], types["circan"]
    assert choose_pack(circan, [types["deall"], types["pocadl"]]) == ()  # a lesser wizard: default pack
    assert choose_pack(wulf, [types["wearg_warriors"]]) == ()  # nothing calls for a change
    against_undead = choose_pack(wulf, [types["undead_warriors"]])
    assert "dismiss_dead" in against_undead and "shield" not in against_undead
    both = choose_pack(wulf, [types["deall"], types["pocadl"]])
    assert {"dismiss_dead", "cure_plague"} <= set(both)
    assert len(set(both) & set(default_pack(wulf))) == 4
    assert "cure_plague" in choose_pack(waerloga, [wulf])  # an enemy Master may hold Plague
    for pack, wizard in ((against_undead, wulf), (both, wulf)):
        assert why_not_choose_spells(wizard, pack, spells()) is None
    assert sorted(PACK_DROP_ORDER) == sorted(spells())


def test_the_bot_ends_the_spells_step_when_nothing_pays() -> None:
    # Wulfgeldre far from every enemy (a Fire or a Strength would hit nobody).
    state = to_spells(
        position([("wulfgeldre", (0, 0)), ("swordsmen", (1, 0))], [("wearg_warriors", (11, 8))])
    )
    assert choose(state) == EndPhase()


def test_sleep_falls_on_enemies_in_contact() -> None:
    # Light Swordsmen in contact with the Wearg; Wærloga three cells off holds Sleep.
    state = position([("swordsmen", (4, 4))], [("wearg_warriors", (3, 4)), ("waerloga", (1, 5))])
    state = to_spells(state)
    assert state.mover == 1
    assert choose(state) == CastSpell(2, "sleep")


def test_fire_on_the_enemy_when_it_is_in_range() -> None:
    state = position([("wulfgeldre", (5, 1)), ("guardsmen", (5, 2))], [("wearg_archers", (5, 5))])
    assert choose(to_spells(state)) == CastSpell(0, "fire")


def test_shield_when_the_wizard_is_in_contact_and_nothing_better() -> None:
    state = position([("knights_of_mynsterlif", (5, 4))], [("ellorgast", (6, 4))])
    state = tweak(state, 1, spells=("shield", "fear", "speed", "courage", "deny_magic", "transportation"))
    state = to_spells(state)
    assert choose(state) == CastSpell(1, "shield")


def test_deny_magic_aims_at_the_wizard_whose_spell_holds() -> None:
    # Wærloga's Command holds the Light's Knights; Circan (8 cells off) denies him.
    state = position(
        [("circan", (1, 1)), ("knights_of_fire", (8, 5))], [("waerloga", (9, 6)), ("ellorgast", (1, 8))]
    )
    state = enchant(state, Enchantment("command", 2, 1, 0, 1, 3, units=(1,)))
    state = to_spells(state)
    assert choose(state) == CastSpell(0, "deny_magic", cell(9, 6))


def test_armageddon_only_when_the_battle_is_lost() -> None:
    light = [("modrof", (2, 1)), ("erendil", (4, 1)), ("elves", (6, 1)), ("knights_of_fire", (8, 1))]
    lost = position(light, [("waerloga", (6, 8))])
    lost = to_spells(tweak(lost, 4, spells=("armageddon", "sleep", "plague", "fear", "weakness", "command")))
    assert choose(lost) == CastSpell(4, "armageddon")
    even = position(light[:1], [("waerloga", (6, 8)), ("unsibb", (5, 8))])
    even = to_spells(tweak(even, 1, spells=("armageddon", "sleep", "plague", "fear", "weakness", "command")))
    assert choose(even) == EndPhase()


def test_the_grima_hunts_the_most_valuable_enemy_character_then_hides() -> None:
    # Pocâdl (2000) is worth more than Wærloga (1900); the Wearg are no character.
    state = position(
        [("grima", (1, 1)), ("swordsmen", (3, 1))],
        [("wearg_warriors", (6, 7)), ("waerloga", (8, 7)), ("pocadl", (10, 7))],
    )
    actions = plan(state)
    assert actions[:2] == [SetQuarry(0, 4), Conceal(0)]
    assert not any(isinstance(a, Move) and a.unit == 0 for a in actions)


def test_a_hidden_grima_gets_a_new_quarry_when_hers_left_the_table() -> None:
    state = position([("grima", (1, 1))], [("waerloga", (8, 7)), ("pocadl", (10, 7))])
    state = tweak(state, 0, hidden=True, quarry=2)
    assert plan(state) == [EndPhase()]  # she keeps her quarry: nothing to order
    state = tweak(state, 2, status="destroyed", strength=0.0)
    assert plan(state)[0] == SetQuarry(0, 1)


def test_the_worm_burrows_when_the_enemy_comes_near() -> None:
    state = position([("swordsmen", (5, 2))], [("sand_worm", (5, 8))], first=1)
    assert plan(state)[0] == Conceal(1)
    far = position([("swordsmen", (0, 0))], [("sand_worm", (11, 8))], first=1)
    assert Conceal(1) not in plan(far)


def test_the_worm_comes_up_under_a_prize_with_no_friend_beside_it() -> None:
    # The Elves (worth more) stand next to the Darkness's Wearg: the worm goes for the Guardsmen instead.
    state = position(
        [("elves", (3, 4)), ("guardsmen", (7, 4))],
        [("wearg_warriors", (2, 4)), ("sand_worm", (5, 6))],
        first=1,
    )
    state = tweak(state, 3, hidden=True)
    assert plan(state)[0] == Surface(3, cell(7, 4))


def test_the_worm_tunnels_toward_a_prize_out_of_reach() -> None:
    state = position([("guardsmen", (11, 0))], [("sand_worm", (0, 8))], first=1)
    state = tweak(state, 1, hidden=True)
    order = plan(state)[0]
    assert isinstance(order, Tunnel) and order.unit == 1
    assert distance(order.to, cell(11, 0)) == distance(cell(0, 8), cell(11, 0)) - 6


def test_a_unit_on_our_portal_is_sent_next_to_the_enemy_prize() -> None:
    # Circan's portal at (3,1); the Swordsmen beside it step on and are sent toward the Knights of Fire.
    state = position(
        [("circan", (2, 1)), ("swordsmen", (4, 1))],
        [("knights_of_fire", (9, 7)), ("wearg_archers", (2, 8))],
    )
    state = enchant(state, Enchantment("transportation", 0, 0, 0, 1, 3, cells=(cell(3, 1),)))
    actions = plan(state)
    assert Move(1, cell(3, 1)) in actions
    journey = next(a for a in actions if isinstance(a, Transport))
    assert journey.unit == 1
    assert distance(journey.to, cell(9, 7)) == 2  # not next to an enemy (VX-SP-TRANSPORT-4): two cells off


def test_units_leave_the_cells_the_lava_will_cover() -> None:
    # Wærloga's Creeping Death started at (5,4) in turn 0: in turn 1 it covers radius 1.
    state = position([("swordsmen", (5, 3))], [("waerloga", (10, 8)), ("wearg_warriors", (11, 0))])
    state = enchant(state, Enchantment("creeping_death", 1, 1, 0, 0, 2, cells=(cell(5, 4),)))
    assert cell(5, 3) in lava_cells(state)
    moves = [a for a in plan(state) if isinstance(a, Move)]
    assert moves and moves[0].unit == 0 and moves[0].to not in lava_cells(state)


def test_deny_magic_calls_off_a_waiting_armageddon() -> None:
    # Wærloga cast Armageddon in this turn's spells step (the Darkness moved first): it waits for turn 2.
    state = position([("circan", (1, 1)), ("swordsmen", (2, 1))], [("waerloga", (6, 7))])
    state = enchant(state, Enchantment("armageddon", 2, 1, 1, 2, 3))
    assert choose(to_spells(state)) == CastSpell(0, "deny_magic", cell(6, 7))


def test_a_denied_wizard_casts_nothing_more_this_turn() -> None:
    state = position([("wulfgeldre", (5, 1)), ("guardsmen", (5, 2))], [("wearg_archers", (5, 5))])
    state = to_spells(state)
    assert choose(state) == CastSpell(0, "fire")
    assert choose(replace(state, denied=(0,))) == EndPhase()  # it would only fizzle (VX-SP-DENY-2)


def test_transportation_opens_a_portal_while_the_enemy_is_far() -> None:
    state = position(
        [("circan", (1, 1)), ("swordsmen", (2, 2)), ("guardsmen", (0, 2))], [("wearg_warriors", (11, 8))]
    )
    cast = choose(to_spells(state))
    assert isinstance(cast, CastSpell) and (cast.unit, cast.spell) == (0, "transportation")
    assert cast.target is not None and distance(cast.target, cell(1, 1)) == 1


# --- late troops (VX-15-24) -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def relief() -> dict[int, Played]:
    return {seed: play("reinforcements", seed) for seed in (1, 2)}


@pytest.mark.parametrize("seed", (1, 2))
def test_vx_15_24_late_troops_come_on_in_their_arrival_turn(relief: dict[int, Played], seed: int) -> None:
    played = relief[seed]
    arrived = {a.unit: state.turn for state, _, a in played.decisions if isinstance(a, AddTroops)}
    start = played.decisions[0][0]
    due = {u.id: start.arrives(u.id) for u in start.units if u.in_reserve}
    assert len(due) == 9 and arrived == due  # every one, as soon as it may
    for state, seat, action in played.decisions:
        if isinstance(action, AddTroops):
            assert action in GAME.legal_actions(state, seat)


@pytest.mark.parametrize("seed", (1, 2))
def test_vx_15_24_fighters_arrive_nearest_the_enemy_and_support_nearest_a_friend(
    relief: dict[int, Played], seed: int
) -> None:
    for state, seat, action in relief[seed].decisions:
        if not isinstance(action, AddTroops):
            continue
        kind = state.units[action.unit].type
        support = kind.range > 1 or kind.has("wizard") or kind.has("supreme_leader")
        anchors = [u.cell for u in state.units if u.on_table and (u.commander == seat) == support]
        legal = GAME.legal_actions(state, seat)
        options = [a.to for a in legal if isinstance(a, AddTroops) and a.unit == action.unit]

        def near(c: Hex, anchors: list[Hex] = anchors) -> int:
            return min(distance(c, x) for x in anchors)

        assert near(action.to) == min(near(c) for c in options), (state.turn, action)


def test_vx_15_24_the_bot_ignores_what_it_cannot_know_with_late_troops_about(
    relief: dict[int, Played],
) -> None:
    rng = random.Random(5)
    decisions = relief[1].decisions
    for state, seat, _ in decisions[:: max(1, len(decisions) // 40)]:
        want = bot_for(GAME).choose(state, seat)
        other = GAME.resample_hidden(state, seat, lambda n: rng.randrange(n))
        assert bot_for(GAME).choose(other, seat) == want, (state.turn, state.phase, seat)


# --- moving first (issue 12: the side that moved first in turn 1 won 12% of the skirmishes) --------------


def moves_of(actions: Sequence[Action]) -> dict[int, Hex]:
    return {a.unit: a.to for a in actions if isinstance(a, Move)}


def test_moving_first_a_unit_stops_out_of_the_enemy_charge_reach() -> None:
    # Wearg Warriors charge 3 cells, so they reach a unit 4 cells off (3 cells, then contact). Light
    # Swordsmen 6 cells away walk 2: to 4 cells off when moving second (nobody moves after them before the
    # combat), to 5 cells off when moving first (the Wearg move next and would charge at x1.5, VX-04-19).
    light, dark = [("swordsmen", (5, 1))], [("wearg_warriors", (5, 7))]
    wearg = cell(5, 7)
    first = moves_of(plan(position(light, dark, first=0)))
    assert distance(first[0], wearg) == 5
    second = position(light, dark, first=1)
    second, _ = GAME.apply(second, EndPhase())  # the Wearg stand
    assert distance(moves_of(plan(second))[0], wearg) == 4


def test_moving_first_a_lone_charge_is_not_made_into_a_pile_on() -> None:
    # The Knights (charge 5) could charge the Wearg Spearmen, but two more Wearg units stand ready to charge
    # the Knights' cell when the Darkness moves after them (flank x1.5 and charge x1.5, VX-04-22): the
    # first mover does not charge; the second mover does.
    light = [("knights_of_mynsterlif", (5, 1))]
    dark = [("wearg_spearmen", (5, 6)), ("wearg_warriors", (3, 7)), ("wearg_warriors", (7, 7))]
    first = plan(position(light, dark, first=0))
    assert not any(isinstance(a, Move) and a.charge for a in first)
    second = position(light, dark, first=1)
    second, _ = GAME.apply(second, EndPhase())
    assert any(isinstance(a, Move) and a.charge for a in plan(second))


def test_moving_first_a_charge_that_locks_every_enemy_in_reach_is_made() -> None:
    # Alone against the Wearg Spearmen, with no other enemy to pile on, the Knights charge even moving first.
    first = plan(position([("knights_of_mynsterlif", (5, 1))], [("wearg_spearmen", (5, 6))], first=0))
    assert any(isinstance(a, Move) and a.charge for a in first)


def test_a_wizard_shields_himself_from_an_enemy_master_in_fire_reach() -> None:
    # Ellorgast (defence 2500) dies to one unresisted Fire (10,000 / 2500 = 4 of his 1.0, VX-SP-FIRE-2);
    # Wulfgeldre, a Master who may hold Fire, stands 6 cells off (a move and a cast away). Ellorgast's own
    # spells do not pay here (nothing of his reaches the Knights far off), so he raises the Shield.
    state = position(
        [("wulfgeldre", (5, 1)), ("knights_of_mynsterlif", (0, 0))], [("ellorgast", (5, 7))], first=1
    )
    assert choose(to_spells(state)) == CastSpell(2, "shield")


def test_a_wizard_with_no_enemy_wizard_nor_grima_about_does_not_shield() -> None:
    # The same, but the Light has only Swordsmen and Knights: no Fire, no Ice, no Grima can reach Ellorgast,
    # and the Shield would cost him a tenth of himself (VX-11-04) for nothing.
    state = position(
        [("swordsmen", (5, 1)), ("knights_of_mynsterlif", (0, 0))], [("ellorgast", (5, 7))], first=1
    )
    assert choose(to_spells(state)) != CastSpell(2, "shield")


def test_the_likely_quarry_of_a_hidden_grima_shields_itself() -> None:
    # The Light's Grima is out of sight (hidden, VX-12-06); Ellorgast is the Darkness's only character.
    state = position([("grima", (1, 1)), ("swordsmen", (0, 0))], [("ellorgast", (10, 7))], first=1)
    state = tweak(state, 0, hidden=True)
    assert choose(to_spells(state)) == CastSpell(2, "shield")
