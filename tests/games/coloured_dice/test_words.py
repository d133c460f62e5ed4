"""The Coloured-Dice rules in words (games/coloured_dice/words.py): every event class of the game has its own
sentence (none is left to the plain fallback), every action either speaks or is told by its events, and a few
sentences checked by hand, the text's own worked examples among them (CD-FI-07, CD-RA-05, CD-CH-17)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import iwgt.games.coloured_dice as package
from iwgt.core.protocol import Event
from iwgt.games.coloured_dice import actions as act
from iwgt.games.coloured_dice import combat_events as ce
from iwgt.games.coloured_dice import events as ev
from iwgt.games.coloured_dice import magic as mg
from iwgt.games.coloured_dice.words import (
    SAYERS,
    SILENT_ACTIONS,
    CdWords,
    Names,
    pool_words,
    question_text,
    singular,
)

WORDS = CdWords()

OBS = {
    "sides": [
        {"name": "the Sons of Kaleva", "plural": True},
        {"name": "the Host of Pohjola", "plural": False},
    ],
    "units": [
        {"id": 0, "seat": 0, "name": "Spearmen of Kaleva", "us_kind": "Us", "start_models": 12},
        {"id": 1, "seat": 1, "name": "Troll of Pohjola", "us_kind": "iUs", "start_models": 1},
        {"id": 2, "seat": 0, "name": "Javelin men", "us_kind": "Us", "start_models": 16},
        {"id": 3, "seat": 1, "name": "Thralls of Pohjola", "us_kind": "Us", "start_models": 12},
        {"id": 4, "seat": 0, "name": "Lemminkäinen", "us_kind": "iUs", "start_models": 1},
        {"id": 5, "seat": 1, "name": "The Master of Pohjola", "us_kind": "iUs", "start_models": 1},
        {"id": 6, "seat": 1, "name": "Louhi's house-guard", "us_kind": "Us", "start_models": 10},
        {"id": 7, "seat": 0, "name": "Priest of Ukko", "us_kind": "iUs", "start_models": 1},
        {"id": 8, "seat": 1, "name": "Poison archers", "us_kind": "Us", "start_models": 10, "slowness": 4},
    ],
    "features": [{"id": 0, "kind": "river", "name": "River"}],
    "objectives": [
        {"id": 0, "at": [24, 18], "vp": 20, "name": "the Sampo"},
        {"id": 1, "at": [12, 18], "vp": 60, "name": "The ford"},
    ],
}
"""A spectator's observation, by hand: the names the sentences use."""


def event_classes() -> list[type[Event]]:
    """Every concrete event class any module of the game defines (the flow's, the combat's, the magic's)."""
    found: dict[str, type[Event]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Event) and obj is not Event and obj.__module__ == module.__name__:
                found[obj.__qualname__] = obj
    return sorted(found.values(), key=lambda c: c.__qualname__)


def test_every_event_class_of_the_game_has_its_own_sentence() -> None:
    classes = event_classes()
    assert {"UnitMoved", "PoolRolled", "MoraleTested", "BattleOver"} <= {c.__name__ for c in classes}
    missing = sorted(c.__name__ for c in classes if c.__name__ not in SAYERS)
    assert not missing, f"events without a sentence in words.SAYERS: {missing}"


ANSWER_EVENTS = {"hero": "points", "bear_wound": "roll", "react": "roll", "resist": "spend"}
"""The answers whose choice brings an event (hero points spent, a die rolled, Will spent): then the event
tells it; the other choice (keep the points, let the wounds through...) has none and the answer speaks."""


@pytest.mark.parametrize("kind", sorted(act.TYPES))
def test_every_action_speaks_or_is_told_by_its_events(kind: str) -> None:
    base = {"type": kind, "unit": 0, "target": 1, "spell": "fire_dart"}
    said = WORDS.action(base, 0, OBS, None)
    if kind in SILENT_ACTIONS:
        assert said is None
    elif kind in ANSWER_EVENTS:
        key = ANSWER_EVENTS[kind]
        quiet = {**base, key: 0 if key == "points" else False}
        told = {**base, key: 2 if key == "points" else True}
        assert WORDS.action(told, 0, OBS, None) is None
        spoken = WORDS.action(quiet, 0, OBS, None)
        assert spoken and spoken.startswith("The Sons of Kaleva ")
    else:
        # Its own sentence, never the plain fallback "<side>: <type>."
        assert said and not said.endswith(f": {kind.replace('_', ' ')}."), said


def test_the_text_s_first_example_in_words_cd_fi_07() -> None:
    """Ten white dice rolling 7 against armour 1: 3 wounds (CD-FI-07)."""
    rolled = ce.PoolRolled("fight", 0, 1, ("white",) * 10, (1, 1, 1, 1, 2, 3, 4, 5, 6, 6), 7, 0, 1, 3, 0)
    assert WORDS.event(rolled, OBS, None) == (
        "The Spearmen of Kaleva roll 10 white dice: 7 points against armour 1: 3 wounds."
    )


def test_the_javelin_example_in_words_cd_ra_05() -> None:
    """Sixteen javelin men at 23": armour 1 + band 2 = 3; 11 points: 2 wounds (CD-RA-03..05)."""
    declared = ce.AttackDeclared("shot", 2, 3, ("blue",) * 16, 3, (("armour", 1), ("skill", 0), ("band", 2)))
    assert WORDS.event(declared, OBS, None) == (
        "The Javelin men shoot at the Thralls of Pohjola with 16 blue dice, "
        "against armour 3 (armour 1, range +2)."
    )
    rolled = ce.PoolRolled("shot", 2, 3, ("blue",) * 16, (1,) * 16, 11, 0, 3, 2, 0)
    assert (
        WORDS.event(rolled, OBS, None)
        == "The Javelin men roll 16 blue dice: 11 points against armour 3: 2 wounds."
    )


def test_a_one_model_unit_takes_a_singular_verb_and_a_person_no_article() -> None:
    troll = ce.WoundsTaken(1, 2, 0, 1, 2)  # Body 3: two wounds on it, it stands (CD-CH-06)
    assert WORDS.event(troll, OBS, None) == "The Troll of Pohjola takes 2 wounds and stands (2 wounds on it)."
    first = ce.FightBegun(5, 0, "turn")
    assert WORDS.event(first, OBS, None) == (
        "The Master of Pohjola and the Spearmen of Kaleva fight: the Master of Pohjola strikes first "
        "(equal slowness: the side whose turn it is)."
    )
    bear = ce.BearWoundRolled(4, "red", 6, 0, 3, 1)  # red face 6 is a miss (CD-CH-17's first die)
    assert WORDS.event(bear, OBS, None) == (
        "Lemminkäinen rolls a red bear-wound die: miss, 0 wounds cancelled, 3 still coming (1 die left)."
    )
    bear = ce.BearWoundRolled(4, "red", 3, 3, 0, 0)  # the second die shows 3: the whole wound cancelled
    assert (
        WORDS.event(bear, OBS, None)
        == "Lemminkäinen rolls a red bear-wound die: 3, 3 wounds cancelled (0 dice left)."
    )
    assert WORDS.event(ce.UnitShaken(5), OBS, None) == "The Master of Pohjola is shaken."


def test_morale_in_words_names_the_modifiers_cd_mm_02() -> None:
    tested = ce.MoraleTested(3, (3, 4), 7, 2, 1, False, "close combat")
    # 3 + 4, +2 for the round's losses, -1 for general morale: 8, not under 7 (CD-MO-02).
    assert WORDS.event(tested, OBS, None) == (
        "The Thralls of Pohjola test morale (close combat): 7 (+2 for the round's losses and -1 for general "
        "morale) = 8, not under 7: failed."
    )
    passed = ce.MoraleTested(1, (1, 1), 3, 4, 0, True, "fight")
    assert WORDS.event(passed, OBS, None) == (
        "The Troll of Pohjola tests morale (after the fight): 2 (+4 for the round's losses) = 6: "
        "2 always passes."
    )  # CD-MO-09


def test_the_flow_s_events_in_words() -> None:
    moved = ev.UnitMoved(0, ((10.0, 4.0), (10.0, 7.0)), (10.0, 7.0), 0.0, 4.0, 3.0, True, 1.0, False)
    assert WORDS.event(moved, OBS, 0) == (
        'The Spearmen of Kaleva move (marching) to (10, 7), using 3" of 4" (1" lost to the terrain).'
    )
    charged = ev.UnitCharged(1, 0, "flank", 9.5, (3.0, 4.0), 90.0, True)
    assert (
        WORDS.event(charged, OBS, 1)
        == 'The Troll of Pohjola charges the Spearmen of Kaleva in the flank from 9.5".'
    )
    # CD-MS-16, CD-RE-01 (designed): a charger the reaction shook or destroyed gives the charge up
    abandoned = ev.ChargeAbandoned(8, 0, "shaken")
    assert WORDS.event(abandoned, OBS, 0) == (
        "The Poison archers' charge at the Spearmen of Kaleva is abandoned: they are shaken."
    )
    alone = ev.ChargeAbandoned(1, 0, "destroyed")
    assert WORDS.event(alone, OBS, 0) == (
        "The Troll of Pohjola's charge at the Spearmen of Kaleva is abandoned: it is destroyed."
    )
    gone = ev.ChargeAbandoned(0, 5, "target_gone")
    assert WORDS.event(gone, OBS, 0) == (
        "The Spearmen of Kaleva's charge at the Master of Pohjola is abandoned: "
        "the Master of Pohjola is gone."
    )
    taken = ev.ObjectiveTaken(0, 0, 20, 0)
    assert WORDS.event(taken, OBS, 1) == (
        "The Sons of Kaleva take the Sampo with the Spearmen of Kaleva: +1 general morale and 20 VP."
    )
    over = ev.BattleOver(1, (40, 75), "last round")
    assert WORDS.event(over, OBS, None) == (
        "The battle is over: the Host of Pohjola wins (the Sons of Kaleva 40 VP, the Host of Pohjola 75 VP; "
        "last round)."
    )


def test_the_answers_say_what_the_player_chose() -> None:
    assert WORDS.action({"type": "hero", "points": -2}, 1, OBS, 0) is None  # HeroPointsSpent tells it
    spent = ce.HeroPointsSpent(5, -2, 0)
    assert WORDS.event(spent, OBS, 0) == "The Master of Pohjola spends 2 hero points (-2), 0 left."
    assert (
        WORDS.action({"type": "hero", "points": 0}, 1, OBS, 0) == "The Host of Pohjola keeps its hero points."
    )
    assert (
        WORDS.action({"type": "bear_wound", "roll": False}, 0, OBS, 1)
        == "The Sons of Kaleva let the wounds through."
    )
    assert (
        WORDS.action({"type": "hero", "points": 0}, 0, OBS, 0) == "The Sons of Kaleva keep their hero points."
    )
    assert WORDS.action({"type": "react", "roll": False}, 0, OBS, 1) == "The Sons of Kaleva do not react."
    assert WORDS.action({"type": "react", "roll": False}, 1, OBS, 0) == "The Host of Pohjola does not react."


def test_a_side_s_verb_agrees_with_its_name() -> None:
    """A plural side's name (armies.toml ``plural = true``) takes a plural verb, a singular one the -s; a unit
    of one model that takes a banner is singular too (CD-GM-01 banners, CD-MS-07 VP)."""
    assert WORDS.event(ev.TurnEnded(0, 1), OBS, None) == "The Sons of Kaleva end their turn."
    assert WORDS.event(ev.TurnEnded(1, 1), OBS, None) == "The Host of Pohjola ends its turn."
    assert WORDS.event(ce.VictoryPoints(0, 240, 240, 2), OBS, None) == (
        "The Sons of Kaleva score 240 VP for the Javelin men (240 in all)."
    )
    assert WORDS.event(ce.VictoryPoints(1, 60, 100, 0), OBS, None) == (
        "The Host of Pohjola scores 60 VP for the Spearmen of Kaleva (100 in all)."
    )
    assert WORDS.event(ce.BannerLost(0, 0, None), OBS, None) == (
        "The Sons of Kaleva lose their banner with the Spearmen of Kaleva."
    )
    assert WORDS.event(ce.BannerLost(0, 0, 1), OBS, None) == (
        "The Troll of Pohjola captures the banner of the Sons of Kaleva."
    )
    assert WORDS.event(ce.BannerLost(3, 1, 0), OBS, None) == (
        "The Spearmen of Kaleva capture the banner of the Host of Pohjola."
    )
    over = ev.BattleOver(0, (75, 40), "last round")
    assert WORDS.event(over, OBS, None) == (
        "The battle is over: the Sons of Kaleva win (the Sons of Kaleva 75 VP, the Host of Pohjola 40 VP; "
        "last round)."
    )


def test_small_words() -> None:
    assert pool_words(("white", "white", "black")) == "2 white and 1 black dice"
    assert pool_words(("red",)) == "1 red die"
    assert [singular(v) for v in ("roll", "are", "rally", "fall back", "release")] == [
        "rolls",
        "is",
        "rallies",
        "falls back",
        "releases",
    ]
    n = Names({"units": [{"id": 0, "seat": 0, "name": "Spearmen"}, {"id": 1, "seat": 1, "name": "Spearmen"}],
               "sides": [{"name": "North"}, {"name": "South"}]})  # fmt: skip
    assert n.unit(0) == "Spearmen (North)" and n.unit(1) == "Spearmen (South)"  # namesakes told by their side


def test_names_take_their_article_as_english_does() -> None:
    """A person and a person's men take none; a name with its own "The" keeps it, small inside a sentence."""
    assert WORDS.event(ce.UnitShaken(6), OBS, None) == "Louhi's house-guard are shaken."
    curly = Names({"units": [{"id": 0, "seat": 1, "name": "Louhi\u2019s house-guard"}]})
    assert curly.the(0) == "Louhi\u2019s house-guard"  # a typographic apostrophe too, no "The Louhi's"
    assert Names({"units": [{"id": 0, "seat": 1, "name": "Spear-wall of the North"}]}).the(0) == (
        "The Spear-wall of the North"
    )
    taken = ev.ObjectiveTaken(1, 1, 60, 6)
    assert WORDS.event(taken, OBS, None) == (
        "The Host of Pohjola takes the ford with Louhi's house-guard: +1 general morale and 60 VP."
    )


def test_a_spell_s_attack_follows_its_casting() -> None:
    cast = mg.SpellCast(0, 7, "ukko_hammer", "god:ukko", 3, None, 0)
    declared = ce.AttackDeclared("spell", 7, 3, ("violet",) * 4, 1, (("armour", 1),))
    said = [WORDS.event(e, OBS, None) for e in (cast, declared)]
    assert said[1] == "The spell strikes the Thralls of Pohjola with 4 violet dice, against armour 1."
    assert (
        said[0] is not None
        and said[0].startswith("The Priest of Ukko casts ")
        and said[0].endswith(" at the Thralls of Pohjola.")
    )


def test_the_observation_says_which_side_s_name_is_plural() -> None:
    """The observation's sides carry their army's ``plural`` (armies.toml), which the words read."""
    from iwgt.games.coloured_dice.observe import observe

    from .kit import battle, unit

    st = battle([unit(0, "lemminkainen", 10, 5, army="kaleva"), unit(1, "thralls", 10, 30, army="pohjola")])
    obs = observe(st, None)
    assert [s["plural"] for s in obs["sides"]] == [True, False]
    assert WORDS.event(ev.TurnEnded(0, 1), obs, None) == "The Sons of Kaleva end their turn."


def test_causes_and_rows_are_said_in_words_not_keys() -> None:
    """A destroyed unit's cause and a general-morale row (its text in rules.toml, CD-GM-04..13) in plain
    words: no data key in the log."""
    assert WORDS.event(ce.UnitDestroyed(0, 0, "wounds", False), OBS, None) == (
        "The Spearmen of Kaleva are destroyed by the wounds taken."
    )
    assert WORDS.event(ce.UnitDestroyed(1, 1, "own_fire", False), OBS, None) == (
        "The Troll of Pohjola is destroyed by the fire of its own side."
    )
    assert WORDS.event(ce.UnitDestroyed(4, 0, "will", False), OBS, None) == (
        "Lemminkäinen is destroyed with no Will left."
    )
    changed = ce.GeneralMoraleChanged(0, -1, -1, "own_unit_destroyed_15", "CD-GM-06")
    assert WORDS.event(changed, OBS, None) == (
        "General morale of the Sons of Kaleva -1 (a unit whose starting Us was 15 or more is destroyed): "
        "now -1."
    )
    tested = ce.MoraleTested(3, (3, 4), 9, 0, 0, True, "shot")
    said = WORDS.event(tested, OBS, None)
    assert said is not None and said.startswith(
        "The Thralls of Pohjola test morale (casualties from shooting): 7"
    )


def test_each_question_comes_with_its_sentence() -> None:
    """The question asked (the observation's ``awaiting``) in one sentence with its verbs agreeing: the roll a
    hero's points would change as it stands (white faces 2, 2, 2, 1 and a miss: 7 points, armour 1: 7 // 2 = 3
    wounds, CD-FI-05), a reaction's dice (CD-RE-01), a bear-wound die, Will against a spell."""
    n = Names(OBS)
    hero = {
        "kind": "hero", "seat": 0, "unit": 4, "range": [0, 2], "adjust": 0, "on": "attack", "attack": "shot",
        "dice": ["white"] * 5, "faces": [3, 3, 3, 1, 4], "source": 8, "target": 4, "armour": 1,
    }  # fmt: skip
    assert question_text(hero, n) == (
        "Lemminkäinen may spend hero points on the Poison archers' shot: 7 points against armour 1, 3 wounds "
        "(0 to +2)."
    )
    own = {**hero, "unit": 0, "source": 0, "target": 3, "attack": "fight", "adjust": 1, "range": [-3, 0]}
    assert question_text(own, n) == (
        "The Spearmen of Kaleva may spend hero points on the blows at the Thralls of Pohjola: 8 points "
        "against armour 1, 4 wounds (-3 to 0)."
    )
    morale = {
        "kind": "hero",
        "unit": 4,
        "range": [-1, 1],
        "adjust": 0,
        "on": "morale",
        "faces": [3, 4],
        "tested": 3,
    }
    assert question_text(morale, n) == (
        "Lemminkäinen may spend hero points on the Thralls of Pohjola's morale test: 2d6 total 7 (-1 to +1)."
    )
    react = {"kind": "react", "unit": 8, "charger": 0, "dice": ["yellow"] * 3}
    assert question_text(react, n) == (
        "The Poison archers may react to the charge of the Spearmen of Kaleva: 3 yellow dice, a total over "
        "slowness 4 reacts."
    )
    bear = {"kind": "bear_wound", "unit": 1, "colour": "black", "wounds": 2}
    assert question_text(bear, n) == (
        "The Troll of Pohjola may roll a black bear-wound die against 2 wounds coming through."
    )
    resist = {"kind": "resist", "unit": 5, "cost": 2, "spell": "dread"}
    assert question_text(resist, n).startswith("The Master of Pohjola may spend 2 Will to resist ")
    pool = {"kind": "roll", "attack": "shot", "source": 8, "target": 1, "dice": ["green"] * 10, "armour": 3}
    assert (
        question_text(pool, n)
        == "The Poison archers roll 10 green dice at the Troll of Pohjola, against armour 3."
    )
    pool = {**pool, "source": 1, "target": 8}
    assert question_text(pool, n).startswith("The Troll of Pohjola rolls 10 green dice at the Poison archers")


def test_the_observation_s_question_carries_its_sentence() -> None:
    """observe() puts the sentence under ``awaiting.text`` (the screen shows it as given)."""
    from iwgt.games.coloured_dice.actions import Shoot
    from iwgt.games.coloured_dice.observe import observe

    from .kit import GAME, battle, unit

    st = battle([unit(0, "archers", 10, 10, army="kaleva"), unit(1, "thralls", 10, 20, army="pohjola")])
    st, _ = GAME.apply(st, Shoot(0, 1))
    awaited = observe(st, None)["awaiting"]
    assert awaited["kind"] == "roll"
    assert awaited["text"].startswith("The Human archers roll ")
    assert "at the Thralls of Pohjola, against armour" in awaited["text"]
