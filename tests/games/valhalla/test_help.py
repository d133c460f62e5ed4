"""Valhalla's help at the table (data/help.toml): the rulebook's words, the recorded decisions, a topic for
every figure kind and kind of ground, and the first_blood guide."""

from __future__ import annotations

from tests.helpcheck import check_clauses, check_quotes

from iwgt.core.registry import get_plugin
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.help import game_help, terrain_kinds
from iwgt.games.valhalla.scenario import load_scenario

SEED = "001_be0ed03d74792175.txt"


def test_every_cited_clause_is_a_shared_clause_and_in_the_rules_doc() -> None:
    cited = check_clauses(game_help(), "valhalla")
    # The how-to-play's victory and the shooting rules are among them (sections and topics both count).
    assert {"VH-WL-08", "VH-SH-06", "VH-MS-03"} <= cited


def test_every_quote_is_the_rulebooks_own_words() -> None:
    # 63 clauses quote the text; VH-MS-03..05 are decisions where the rulebook is silent.
    assert check_quotes(game_help(), SEED) == 63


def test_every_figure_kind_and_kind_of_ground_has_a_topic_with_its_profile() -> None:
    help_ = game_help()
    for kind in rules().figures:
        topic = help_.topic(f"figure:{kind}")
        assert topic is not None and topic.profile and topic.rules, kind
    # woods and village (areas), hills, and the five obstacle lines of scenario.py
    assert terrain_kinds() == ("woods", "village", "hill", "fence", "hedge", "wall", "stream", "obstacle")
    for kind in terrain_kinds():
        topic = help_.topic(f"terrain:{kind}")
        assert topic is not None and topic.profile, kind


def test_profiles_come_from_the_games_numbers() -> None:
    help_ = game_help()
    hero = help_.topic("figure:hero")
    assert hero is not None
    profile = dict(hero.profile)
    # data/rules.toml [figures.hero]: die = 10, save_bonus = 1, killed_coins = 3; [saves] sides = 6
    assert profile["Combat die"] == "d10"
    assert profile["Dice of Death"] == "d6 +1"
    assert profile["Coins to the enemy when it goes to Valhalla"] == "3"
    archer = dict(help_.topic("figure:archer").profile)  # type: ignore[union-attr]
    assert archer["Shoots"] == 'yes: range 12", close 6"'
    assert "Coins to the enemy when it is wounded" not in archer  # wounded_coins = 0
    woods = dict(help_.topic("terrain:woods").profile)  # type: ignore[union-attr]
    assert woods["Movement"] == 'each inch costs 2"'  # slow_cost = 2.0
    assert woods["Cover"].startswith("-1 to hit")  # cover_modifier = -1
    # A topic's rules carry the clause, the rulebook's words and the decision.
    first = hero.rules[0]
    assert (first.clause, first.quote) == ("VH-CB-01", "Each player has 1 armoured hero")
    assert "+1" in first.decision


def test_the_first_blood_guide_walks_through_the_first_turn() -> None:
    guide = game_help().guide("first_blood")
    assert guide is not None
    load_scenario("first_blood")  # the guide's scenario is shipped
    titles = [s.title for s in guide.steps]
    assert titles[0] == "The table" and titles[-1] == "Coins win"
    assert all(s.testid.startswith("vh-") for s in guide.steps)


def test_the_plugin_serves_it_once() -> None:
    plugin = get_plugin("valhalla")
    first = plugin.help()
    assert first is not None and first is plugin.help()
    data = first.to_json()
    assert data["game"] == "valhalla"
    assert [k["kind"] for k in data["kinds"]] == ["figure", "terrain", "action", "marker", "thing", "phase"]
    assert len(data["how_to_play"]) == 6
