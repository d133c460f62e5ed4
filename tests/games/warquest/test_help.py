"""WarQuest's help at the table (data/help.toml): the rulebook's own words (page 1 of the seed), the recorded
decisions, a topic for every troop kind, kind of special location, kind of power card and kind of event with
its profile from the game's data, and a topic for every phase the observation names and every action a player
may send."""

from __future__ import annotations

from typing import get_args

from tests.helpcheck import check_clauses, check_quotes, unquoted_clauses

from iwgt.games.warquest import actions as act
from iwgt.games.warquest.help import game_help
from iwgt.games.warquest.maps import LOCATIONS
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import Phase

SEED = "003_1b6cc2afb26b9ec9.txt"
"""The surviving first page of the rules the quotes are taken from."""


def test_every_cited_clause_is_a_shared_clause_and_in_the_rules_doc() -> None:
    cited = check_clauses(game_help(), "warquest")
    assert {"WQ-CB-09", "WQ-SP-04", "WQ-QU-03", "WQ-MS-41"} <= cited


def test_every_quote_is_the_rulebook_s_own_words() -> None:
    help_ = game_help()
    assert help_.source is not None
    quoted = check_quotes(help_, SEED)
    # The clauses of things the text leaves out (WQ-MS) quote nothing: they are designed, not quoted.
    silent = unquoted_clauses(help_)
    assert silent and all(c.startswith("WQ-MS-") for c in silent)
    assert quoted == len(help_.source.rules) - len(silent)


def test_every_troop_kind_has_a_topic_with_its_profile_from_the_data() -> None:
    help_ = game_help()
    for key in rules().troops:
        topic = help_.topic(f"troop:{key}")
        assert topic is not None and topic.profile and topic.rules, key
    # WQ-TR-01, printed: Skeleton Warriors cost 2, 1 attack die, defence 1; the row is the text's, not ours.
    skeleton = dict(help_.topic("troop:skeleton_warrior").profile)  # type: ignore[union-attr]
    assert skeleton["Cost"] == "2 gold" and skeleton["Attack dice"] == "1" and skeleton["Defence"] == "1"
    assert "Printed" in skeleton and "Designed" not in skeleton
    # WQ-TR-04: the Wraith King (unique) is not bought, 2 attack dice, defence 2.
    king = dict(help_.topic("troop:wraith_king").profile)  # type: ignore[union-attr]
    assert king["Cost"] == "not bought" and king["Attack dice"] == "2" and king["Defence"] == "2"
    assert "unique" in king["Kind"]
    # A designed row says why (WQ-MS-08): Dwarf Infantry never flee (defence 3) and SHIELD their rank.
    dwarf = dict(help_.topic("troop:dwarf_foot").profile)  # type: ignore[union-attr]
    assert dwarf["Defence"] == "3" and dwarf["Special"] == "SHIELD" and dwarf["Designed"]
    # RAGE shows its bonus (WQ-SP-06: +1 for Orc Foot, +2 for Great Orc).
    assert dict(help_.topic("troop:orc_foot").profile)["Special"] == "RAGE +1"  # type: ignore[union-attr]
    assert dict(help_.topic("troop:great_orc").profile)["Special"] == "RAGE +2"  # type: ignore[union-attr]


def test_every_kind_of_location_has_a_topic_naming_its_places() -> None:
    help_ = game_help()
    kinds = {kind for _, kind in LOCATIONS.values()}
    assert {"tower", "tunnel", "tomb", "monument", "dungeon", "cave"} <= kinds  # WQ-MP-05's list
    for kind in kinds:
        topic = help_.topic(f"location:{kind}")
        assert topic is not None and topic.profile, kind
        expected = [name for name, k in LOCATIONS.values() if k == kind]
        assert dict(topic.profile)["Places"] == ", ".join(expected), kind


def test_every_kind_of_power_and_event_card_has_a_topic_with_its_cards() -> None:
    help_ = game_help()
    powers = {c.effect for c in rules().powers.values()}
    events = {c.effect for c in rules().events.values()}
    for effect in powers:
        assert help_.topic(f"power:{effect}") is not None, effect
    for effect in events:
        assert help_.topic(f"event:{effect}") is not None, effect
    # The counts come from the data: 51 power cards and 30 event cards in all (WQ-CM-18, WQ-CM-19).
    total_powers = sum(int(dict(help_.topic(f"power:{e}").profile)["Cards"]) for e in powers)  # type: ignore[union-attr]
    total_events = sum(int(dict(help_.topic(f"event:{e}").profile)["Cards"]) for e in events)  # type: ignore[union-attr]
    assert (total_powers, total_events) == (51, 30)


def test_every_phase_the_observation_names_has_a_topic() -> None:
    help_ = game_help()
    for phase in get_args(Phase):
        assert help_.topic(f"phase:{phase}") is not None, phase


def test_every_action_a_player_may_send_has_a_topic() -> None:
    help_ = game_help()
    for kind in act.TYPES:
        topic = help_.topic(f"action:{kind}")
        assert topic is not None and topic.rules, kind


def test_the_short_campaign_guide_points_at_what_the_screen_draws() -> None:
    from pathlib import Path

    from iwgt.games.warquest.plugin import plugin

    guide = game_help().guide("short")
    assert guide is not None and "short" in plugin.game.scenario_names()
    screen = (Path(plugin.web or ".") / "screen.js").read_text(encoding="utf-8")
    for step in guide.steps:
        assert step.testid == "log" or f'testid: "{step.testid}"' in screen, step.testid
