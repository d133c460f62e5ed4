"""Result.words: the end line names the winner with a verb that agrees with its title."""

from __future__ import annotations

from iwgt.core.protocol import Result


def test_a_singular_title_wins_by_default_so_other_games_say_what_they_said() -> None:
    """Without ``plural`` the line is unchanged ("the Light wins (...)")."""
    res = Result.win([0], 2, "the Darkness has nothing left", side="light", title="the Light")
    assert res.words == "the Light wins (the Darkness has nothing left)"
    assert "plural" not in res.to_json()


def test_a_plural_title_takes_a_plural_verb() -> None:
    """A plural title: "the Sons of Kaleva win", not "wins"."""
    res = Result.win([1], 2, "6 rounds: 90 VP to 40", side="kaleva", title="the Sons of Kaleva", plural=True)
    assert res.words == "the Sons of Kaleva win (6 rounds: 90 VP to 40)"
