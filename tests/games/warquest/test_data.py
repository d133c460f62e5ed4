"""WarQuest data files (rules.py, data/*.toml): the printed troop rows, the pools, the decks' counts and
mixes, designed reasons, card texts and broken files refused with the file and the dotted key (WQ-CM, WQ-TR,
WQ-SP, WQ-MS-02..24, WQ-MS-33..38)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest

from iwgt.core.errors import DataFileError
from iwgt.games.warquest.rules import (
    DATA_DIR,
    EVENT_EFFECTS,
    EVENT_POWER_EFFECTS,
    KINGDOMS,
    LOCATION_KEYS,
    OBJECTIVES,
    PEOPLES,
    POWER_EFFECTS,
    advanced_kinds,
    basic_kinds,
    is_dwarf_foot,
    muster_kind,
    parse_rules,
    rules,
    troop,
    wraith_kinds,
)

# ------------------------------------------------------------------ troops


def test_printed_rows_exact() -> None:
    """WQ-TR-01..04: the four surviving rows, cost/attack/defence exactly as printed, not designed."""
    printed = {
        "skeleton_warrior": ("Skeleton Warriors", 2, 1, 1),
        "skeleton_archer": ("Skeleton Archers", 2, 1, 1),
        "skeleton_rider": ("Skeleton Riders", 4, 2, 1),
        "wraith_king": ("Wraith King", None, 2, 2),
    }
    for key, (name, cost, attack, defense) in printed.items():
        t = troop(key)
        assert (t.name, t.cost, t.attack, t.defense) == (name, cost, attack, defense), key
        assert t.designed is None, key
    assert troop("wraith_king").unique and troop("wraith_king").pool == 1
    assert troop("wraith_king").recruit == "none"
    # WQ-TR-02 decision: skeleton archers shoot.
    assert troop("skeleton_archer").missile
    assert {k for k, t in rules().troops.items() if t.designed is None} == set(printed)


def test_every_designed_row_has_a_reason() -> None:
    """WQ-MS-02..24: every row the text does not give says why (a non-trivial sentence)."""
    for key, t in rules().troops.items():
        if key in ("skeleton_warrior", "skeleton_archer", "skeleton_rider", "wraith_king"):
            continue
        assert t.designed is not None and len(t.designed) > 20, key
        assert re.fullmatch(r"WQ-MS-\d\d", t.clause), key


def test_pools_from_the_components() -> None:
    """WQ-CM-02..11: the miniature counts are the pool limits of the ten boxed troop types."""
    assert {k: troop(k).pool for k in (
        "goblin_foot", "goblin_archer", "elf_foot", "elf_archer", "dwarf_foot", "dwarf_crossbow",
        "satyr_foot", "satyr_archer", "orc_foot", "orc_archer",
    )} == {
        "goblin_foot": 15, "goblin_archer": 10, "elf_foot": 15, "elf_archer": 10, "dwarf_foot": 10,
        "dwarf_crossbow": 5, "satyr_foot": 10, "satyr_archer": 5, "orc_foot": 10, "orc_archer": 5,
    }  # fmt: skip


def test_miniatures_add_up_to_115() -> None:
    """WQ-CM-01, WQ-CM-12/13: 95 boxed troops + 5 warlords + 5 x LIEUTENANTS_PER_PLAYER lieutenants = 115."""
    boxed = [k for k, t in rules().troops.items() if "(WQ-CM-" in (t.designed or "")]
    assert len(boxed) == 10
    lieutenants = 5 * rules().constants.LIEUTENANTS_PER_PLAYER
    assert sum(troop(k).pool for k in boxed) + 5 + lieutenants == 115


def test_designed_pools() -> None:
    """WQ-MS-24: the troops without miniatures have the spec's designed pools."""
    expected = {
        "goblin_wolf_rider": 5, "high_elf_foot": 5, "great_orc": 5, "bugbear": 5, "troll": 4,
        "fire_dragon": 1, "air_wizard": 1, "earth_wizard": 1, "fire_wizard": 1, "water_wizard": 1,
        "dwarf_hearthguard": 3, "elf_warden": 3, "orc_blackguard": 3, "skeleton_warrior": 10,
        "skeleton_archer": 5, "skeleton_rider": 5, "wraith_king": 1,
    }  # fmt: skip
    assert {k: troop(k).pool for k in expected} == expected


def test_special_powers_per_clause() -> None:
    """WQ-SP-03..14: each special power sits on the troops the text names; RAGE +1 orc foot, +2 great orc."""
    holders = {
        "relentless_pursuit": {"goblin_wolf_rider"},
        "untrained_archer": {"elf_foot", "high_elf_foot"},
        "shield": {"dwarf_foot", "dwarf_hearthguard"},
        "ambush": {"satyr_foot", "satyr_archer"},
        "rage": {"orc_foot", "great_orc", "orc_blackguard"},
        "missile_shield": {"air_wizard"},
        "wall": {"earth_wizard"},
        "fireball": {"fire_wizard"},
        "ice_blast": {"water_wizard"},
        "regenerate": {"troll"},
        "fire_breath": {"fire_dragon"},
        "hero": set(),
    }
    for special, kinds in holders.items():
        assert {k for k, t in rules().troops.items() if special in t.specials} == kinds, special
    assert (troop("orc_foot").rage, troop("great_orc").rage, troop("goblin_foot").rage) == (1, 2, 0)
    assert all(troop(k).missile for k in ("air_wizard", "earth_wizard", "fire_wizard", "water_wizard"))


def test_basic_and_advanced_kinds() -> None:
    """WQ-SU-16/17, WQ-TR-06/07: wizards, trolls, dragons and elites are Advanced; skeletons come with the
    Wraith King; the basic kinds are the ten boxed types and the bugbears (WQ-MS-15)."""
    assert set(basic_kinds()) == {
        "goblin_foot", "goblin_archer", "elf_foot", "elf_archer", "dwarf_foot", "dwarf_crossbow",
        "satyr_foot", "satyr_archer", "orc_foot", "orc_archer", "bugbear",
    }  # fmt: skip
    for k in ("troll", "fire_dragon", "air_wizard", "dwarf_hearthguard", "elf_warden", "orc_blackguard"):
        assert k in advanced_kinds() and k not in basic_kinds()
    assert set(wraith_kinds()) == {"skeleton_warrior", "skeleton_archer", "skeleton_rider"}
    assert all(troop(k).elite for k in ("dwarf_hearthguard", "elf_warden", "orc_blackguard"))
    assert all(
        troop(k).recruit == "city" for k in ("air_wizard", "earth_wizard", "fire_wizard", "water_wizard")
    )
    assert {troop(k).people for k in basic_kinds()} <= set(PEOPLES)


def test_dwarf_foot_and_muster_kinds() -> None:
    """WQ-SP-04: Dwarf Foot = dwarf infantry and hearthguard, not crossbowmen; muster gives a people's first
    basic foot kind (WQ-MS-35)."""
    assert is_dwarf_foot("dwarf_foot") and is_dwarf_foot("dwarf_hearthguard")
    assert not is_dwarf_foot("dwarf_crossbow") and not is_dwarf_foot("goblin_foot") and not is_dwarf_foot("x")
    assert [muster_kind(p) for p in ("goblin", "elf", "dwarf", "satyr", "orc", "bugbear")] == [
        "goblin_foot", "elf_foot", "dwarf_foot", "satyr_foot", "orc_foot", "bugbear",
    ]  # fmt: skip
    with pytest.raises(KeyError):
        muster_kind("dragon")


def test_unknown_troop_names_the_known() -> None:
    """troop() refuses an unknown kind, listing the known ones."""
    with pytest.raises(KeyError, match="goblin_foot"):
        troop("goblin_food")


# ------------------------------------------------------------------ constants


def test_constants_as_the_spec() -> None:
    """The spec's named constants (WQ-SU-10, WQ-TU-01, WQ-MV-02, WQ-LT-02/04, WQ-PW-06, WQ-SP, WQ-CB-14)."""
    c = rules().constants
    expected = dict(
        START_GOLD=30, ACTIONS_PER_TURN=3, MOVE_REGIONS=3, LIEUTENANT_COST=8, MAX_LIEUTENANTS=2,
        LIEUTENANTS_PER_PLAYER=3, OWNERSHIP_TOKENS=24, MARKET_SIZE=5, POWER_LIMIT=5, ACTIVE_EVENTS=25,
        QUEST_HAND=2, CONQUEST_HAND=2, EMPEROR_QUESTS=4, MAX_RANK=5, PURSUIT_DICE=4, BATTLE_VP=1,
        MAX_BATTLE_ROUNDS=8, AMBUSH_MAX_EXTRA=20, WALL_DICE=3, MISSILE_SHIELD_DICE=3, FIREBALL_DICE=6,
        FIREBALL_VS_TROLL=12, ICE_DICE=4, ICE_VS_FIRE=12, BREATH_DICE=4, NO_FLEE_DEFENSE=3, AMBUSH_DICE=2,
        QUEST_DICE=2, RELENTLESS_PURSUIT_DICE=8, WRAITH_KING_WORTH=8,
    )  # fmt: skip
    assert {k: getattr(c, k) for k in expected} == expected
    assert rules().version == "warquest-1.0"


def test_constant_sources() -> None:
    """Each constant names its clause; the printed ones are not designed, the designed ones say why."""
    printed = {"START_GOLD": "WQ-SU-10", "LIEUTENANT_COST": "WQ-LT-02", "FIREBALL_VS_TROLL": "WQ-SP-11"}
    for name, clause in printed.items():
        assert rules().source(name).clause == clause and rules().source(name).designed is None
    for name in (
        "OWNERSHIP_TOKENS",
        "LIEUTENANTS_PER_PLAYER",
        "BATTLE_VP",
        "MAX_BATTLE_ROUNDS",
        "WRAITH_KING_WORTH",
        "AMBUSH_MAX_EXTRA",
    ):
        assert rules().source(name).designed, name


# ------------------------------------------------------------------ decks


def test_deck_sizes() -> None:
    """WQ-CM-16..19: 30 quests, 40 conquests, 30 events, 51 powers; ids 0-based in file order."""
    r = rules()
    assert (len(r.quests), len(r.conquests), len(r.events), len(r.powers)) == (30, 40, 30, 51)
    for deck in (r.quests, r.conquests, r.events, r.powers):
        assert list(deck) == list(range(len(deck)))
        assert all(card.id == i for i, card in deck.items())
        assert len({card.key for card in deck.values()}) == len(deck)


def test_quests_sacred_and_lesser() -> None:
    """WQ-MS-33, WQ-OB-03: 20 sacred (VP 6x4, 7x6, 8x5, 9x3, 10x2), 10 lesser of VP 4..5, two per location."""
    quests = list(rules().quests.values())
    sacred = Counter(q.vp for q in quests if q.sacred)
    assert sacred == {6: 4, 7: 6, 8: 5, 9: 3, 10: 2}
    lesser = [q.vp for q in quests if not q.sacred]
    assert len(lesser) == 10 and set(lesser) <= {4, 5}
    assert Counter(q.location for q in quests) == {loc: 2 for loc in LOCATION_KEYS}
    assert all(q.monster and q.designed for q in quests)


def test_conquest_mix() -> None:
    """WQ-MS-34: the spec's mix of objectives and VP; every kingdom has its three cards."""
    cards = list(rules().conquests.values())
    mix = Counter((c.objective, c.params.get("count"), c.vp) for c in cards)
    assert mix == {
        ("kingdom_regions", 2, 2): 8, ("kingdom_capital", None, 3): 8, ("kingdom_all", None, 5): 8,
        ("cities", 3, 3): 3, ("cities", 5, 5): 2, ("regions", 6, 2): 3, ("regions", 10, 4): 2,
        ("kingdoms", 3, 3): 2, ("lands", None, 2): 4,
    }  # fmt: skip
    for kind in ("kingdom_regions", "kingdom_capital", "kingdom_all"):
        assert sorted(c.params["kingdom"] for c in cards if c.objective == kind) == sorted(KINGDOMS)
    assert sorted(c.params["people"] for c in cards if c.objective == "lands") == [
        "dwarf",
        "elf",
        "goblin",
        "orc",
    ]
    assert {c.objective for c in cards} == set(OBJECTIVES)


def test_events_closed_list_and_reach() -> None:
    """WQ-MS-35: every event is of the closed list; the kingdom events reach all eight kingdoms; unlock events
    open advanced troops."""
    events = list(rules().events.values())
    assert {e.effect for e in events} == set(EVENT_EFFECTS)
    touched = {e.params["kingdom"] for e in events if "kingdom" in e.params}
    assert touched == set(KINGDOMS)
    for e in events:
        if e.effect == "unlock":
            assert set(e.params["troops"]) <= set(advanced_kinds())


def test_power_mix() -> None:
    """WQ-MS-36: the spec's mix of 51 power cards, 6 of them event cards; costs 4..15."""
    powers = list(rules().powers.values())
    mix = Counter(p.effect for p in powers)
    assert mix == {
        "unlock": 16, "wraith_king": 1, "rank_dice": 4, "defend_dice": 2, "rally": 2, "pursuit": 1, "tax": 2,
        "discount": 3, "lieutenant_cost": 1, "move": 2, "ford": 2, "tunnels": 1, "quest_bonus": 3, "vp": 3,
        "income": 2, "gold": 2, "free_troops": 2, "extra_action": 1, "battle_dice": 1,
    }  # fmt: skip
    events = [p for p in powers if p.event]
    assert len(events) == 6 and {p.effect for p in events} == set(EVENT_POWER_EFFECTS)
    assert {p.effect for p in powers if not p.event} == set(POWER_EFFECTS)
    assert all(4 <= p.cost <= 15 for p in powers)


def test_unlock_cards_cover_every_advanced_troop() -> None:
    """WQ-TR-06, WQ-MS-16..22: every advanced troop has a card; the spec's counts (2 for riders, high elves,
    great orcs and trolls, 1 for the dragon, each wizard and each elite)."""
    unlocks = Counter(k for p in rules().powers.values() if p.effect == "unlock" for k in p.params["troops"])
    twice = {"goblin_wolf_rider", "high_elf_foot", "great_orc", "troll"}
    assert unlocks == {k: 2 if k in twice else 1 for k in advanced_kinds()}


def test_the_black_crown() -> None:
    """WQ-TR-04, WQ-MS-36: one wraith_king card, The Black Crown; its text says what the Wraith King is."""
    crowns = [p for p in rules().powers.values() if p.effect == "wraith_king"]
    assert len(crowns) == 1 and crowns[0].name == "The Black Crown" and not crowns[0].event
    assert "attack 2, defence 2" in crowns[0].text


def test_income_dearer_than_four_rounds() -> None:
    """WQ-MS-36 design: an income card costs more than the gold it yields over 4 rounds; a relic's VP and a
    dearer card of the same kind cost more."""
    for p in rules().powers.values():
        if p.effect == "income":
            assert p.cost > 4 * int(p.params["gold"]), p.key
    by_kind: dict[str, list[tuple[int, int]]] = {}
    for p in rules().powers.values():
        if p.effect in ("vp", "quest_bonus", "rank_dice", "income"):
            amount = next(v for v in p.params.values() if isinstance(v, int))
            by_kind.setdefault(p.effect, []).append((amount, p.cost))
    for kind, pairs in by_kind.items():
        for a, ca in pairs:
            for b, cb in pairs:
                assert not (a > b and ca <= cb), (kind, a, ca, b, cb)


def test_every_card_has_a_reason() -> None:
    """WQ-MS-33..36: every card is designed and says why."""
    r = rules()
    for deck in (r.quests, r.conquests, r.events, r.powers):
        for card in deck.values():
            assert len(card.designed) > 10, card.key


def _numbers(text: str) -> set[int]:
    """The whole numbers written in a text."""
    return {int(n) for n in re.findall(r"\d+", text)}


def test_card_texts_say_their_numbers() -> None:
    """Card text says exactly what the effect does, with numbers: every number parameter appears in the text,
    and an unlock or free-troops card names its troop."""
    r = rules()
    for card in [*r.conquests.values(), *r.events.values(), *r.powers.values()]:
        for name, value in card.params.items():
            if isinstance(value, int):
                assert value in _numbers(card.text), (card.key, name)
        for key in card.params.get("troops", ()):
            assert isinstance(key, str)
            assert troop(key).name.split()[-1].rstrip("s") in card.text, card.key
        kind = card.params.get("kind")
        if isinstance(kind, str):
            assert troop(kind).name.split()[-1].rstrip("s") in card.text, card.key
    for p in r.powers.values():
        assert p.text.startswith("Event:") == p.event, p.key


def test_every_map_holds_the_kingdoms_peoples_and_locations_the_cards_name() -> None:
    """WQ-MS-26/28/31: the cards' kingdoms, peoples and 15 special locations (one table, rules.py) are on
    every shipped map: all eight kingdoms, each people's wild lands, each location on one region."""
    from iwgt.games.warquest.maps import load_map, map_keys

    assert len(LOCATION_KEYS) == 15 and len(KINGDOMS) == 8 and len(PEOPLES) == 8
    for key in map_keys():
        m = load_map(key)
        assert set(m.kingdoms) == set(KINGDOMS), key
        assert {r.people for r in m.regions.values() if r.people} == set(PEOPLES), key
        assert set(m.location_region) == set(LOCATION_KEYS), key


# ------------------------------------------------------------------ broken files


def _shipped(name: str) -> str:
    """A shipped data file's text."""
    return (DATA_DIR / name).read_text(encoding="utf-8")


def _broken(name: str, old: str, new: str) -> DataFileError:
    """The refusal of the shipped data with one file's first ``old`` replaced by ``new``."""
    text = _shipped(name)
    assert old in text, old
    with pytest.raises(DataFileError) as caught:
        parse_rules({name: text.replace(old, new, 1)})
    assert caught.value.path == name
    return caught.value


def test_shipped_files_parse_from_text() -> None:
    """parse_rules on the shipped texts gives the shipped rules."""
    texts = {name: _shipped(name) for name in ("troops.toml", "powers.toml")}
    again = parse_rules(texts)
    assert again.troops == rules().troops and again.powers == rules().powers


BROKEN: list[tuple[str, str, str, str, str]] = [
    # (file, old, new, dotted key, words in the message)
    (
        "rules.toml",
        "START_GOLD = { value = 30,",
        'START_GOLD = { value = "30",',
        "constants.START_GOLD.value",
        "whole number",
    ),
    (
        "rules.toml",
        "START_GOLD = { value = 30,",
        "START_GOLDEN = { value = 30,",
        "constants.START_GOLD",
        "missing",
    ),
    ("rules.toml", 'clause = "WQ-SU-10"', 'clause = "SU-10"', "constants.START_GOLD.clause", "pattern"),
    ("troops.toml", "cost = 2\n", 'cost = "two"\n', "troops.goblin_foot.cost", "whole number"),
    ("troops.toml", "pool = 15\n", "pool = 15\npools = 15\n", "troops.goblin_foot.pools", "unknown key"),
    ("troops.toml", "attack = 1\n", "atack = 1\n", "troops.goblin_foot.attack", "missing"),
    (
        "troops.toml",
        'clause = "WQ-TR-01"\n',
        'clause = "WQ-TR-01"\ndesigned = "ours"\n',
        "troops.skeleton_warrior.designed",
        "printed",
    ),
    (
        "troops.toml",
        'designed = "basic; the cheapest',
        'decision = "basic; the cheapest',
        "troops.goblin_foot.designed",
        "missing",
    ),
    (
        "troops.toml",
        'specials = ["shield"]',
        'specials = ["sheild"]',
        "troops.dwarf_foot.specials.0",
        "shield",
    ),
    ("troops.toml", "rage = 1\n", "", "troops.orc_foot.rage", "RAGE"),
    (
        "quests.toml",
        'location = "tower_of_winds"',
        'location = "tower_of_wind"',
        "quests.0.location",
        "unknown location",
    ),
    ("quests.toml", "vp = 8\n", "vp = 13\n", "quests.0.vp", "12"),
    ("quests.toml", 'key = "lost_windchime"', 'key = "crown_of_storms"', "quests.1.key", "quests.0"),
    (
        "conquests.toml",
        'objective = "kingdom_regions"',
        'objective = "kingdom_region"',
        "conquests.0.objective",
        "unknown kind",
    ),
    (
        "conquests.toml",
        'kingdom = "vandar", count = 2',
        'kingdom = "vandr", count = 2',
        "conquests.0.params.kingdom",
        "unknown kingdom",
    ),
    (
        "conquests.toml",
        'kingdom = "vandar", count = 2',
        'kingdom = "vandar"',
        "conquests.0.params.count",
        "missing",
    ),
    ("events.toml", "params = { gold = 5 }", "params = { gold = 0 }", "events.0.params.gold", ">= 1"),
    (
        "events.toml",
        "params = { gold = 5 }",
        "params = { gold = 5, dice = 2 }",
        "events.0.params.dice",
        "unknown parameter",
    ),
    (
        "events.toml",
        'troops = ["troll"]',
        'troops = ["goblin_foot"]',
        "events.21.params.troops.0",
        "advanced",
    ),
    (
        "events.toml",
        'people = "goblin", count = 3',
        'people = "troll", count = 3',
        "events.24.params.people",
        "muster",
    ),
    (
        "powers.toml",
        'troops = ["goblin_wolf_rider"]',
        'troops = ["skeleton_rider"]',
        "powers.0.params.troops.0",
        "advanced",
    ),
    ("powers.toml", 'troops = ["goblin_wolf_rider"]', "troops = []", "powers.0.params.troops", "non-empty"),
    (
        "powers.toml",
        'rank = "front", dice = 1',
        'rank = "middle", dice = 1',
        "powers.17.params.rank",
        "front",
    ),
    (
        "powers.toml",
        "params = { gold = 8 }\nevent = true",
        "params = { gold = 8 }",
        "powers.45.event",
        "event",
    ),
    (
        "powers.toml",
        'kind = "bugbear", count = 3',
        'kind = "wraith_king", count = 3',
        "powers.47.params.kind",
        "unknown troop",
    ),
    ("powers.toml", 'effect = "tunnels"', 'effect = "tunnel"', "powers.36.effect", "unknown kind"),
]


@pytest.mark.parametrize(("name", "old", "new", "key", "words"), BROKEN, ids=[b[3] for b in BROKEN])
def test_broken_file_refused_naming_the_key(name: str, old: str, new: str, key: str, words: str) -> None:
    """A broken data file is refused with the file and the dotted key of the problem, in words."""
    err = _broken(name, old, new)
    assert err.key == key
    assert words in err.message
    assert err.message.startswith(f"{name}, {key}: ")


def test_broken_toml_syntax() -> None:
    """A TOML syntax error names the file and the line."""
    with pytest.raises(DataFileError, match=r"events\.toml is not valid TOML: line \d+"):
        parse_rules({"events.toml": "[[events]\nkey = 1"})


def test_unknown_file_name_refused() -> None:
    """parse_rules knows only the six files."""
    with pytest.raises(DataFileError, match="one of the data files"):
        parse_rules({"troop.toml": ""})


CHECKS: list[Callable[[], object]] = [rules, basic_kinds, advanced_kinds, wraith_kinds]


def test_loaders_are_cached() -> None:
    """rules() and the kind lists are read once (the same object each call)."""
    for check in CHECKS:
        assert check() is check()
