"""The die a view asks the players to roll by hand: a plain die as before, a die with labelled faces with its
labels (face n is ``faces[n-1]``) and colour, so that the screen draws the faces as printed on the die."""

from __future__ import annotations

import json

from iwgt.core.chance import Die
from iwgt.server.views import die_view


def test_a_plain_die_has_no_labels_and_no_colour() -> None:
    assert die_view(Die(6, "who goes first")) == {
        "sides": 6,
        "purpose": "who goes first",
        "hint": "roll a d6",
        "faces": [],
        "colour": "",
    }


def test_a_labelled_die_sends_its_labels_and_colour() -> None:
    die = Die(6, "the volley", faces=("0", "0", "1", "1", "2", "kill"), colour="black")
    view = die_view(die)
    assert view["faces"] == ["0", "0", "1", "1", "2", "kill"]
    assert (view["colour"], view["hint"]) == ("black", "roll a black die")
    assert json.loads(json.dumps(view)) == view  # plain JSON
