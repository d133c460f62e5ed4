"""The physical-dice prompt of ``iwgt simulate --physical-dice``: a die whose faces carry labels lists the
number to type for each label; a plain die is asked as before."""

from __future__ import annotations

from iwgt.cli import die_prompt, parse_face
from iwgt.core.chance import Die


def test_a_plain_die_is_asked_by_its_sides() -> None:
    assert die_prompt(Die(6, "who goes first")) == "who goes first: roll a d6"


def test_a_labelled_die_lists_each_face_number_and_label() -> None:
    die = Die(6, "the volley", faces=("1", "1", "2", "miss", "miss", "miss"), colour="white")
    assert die_prompt(die) == (
        "the volley: roll a white die; type the face's number: 1=1 2=1 3=2 4=miss 5=miss 6=miss"
    )
    # The answer is the face's number, as for any die (the record holds numbers only).
    assert parse_face("4", die) == 4
    assert parse_face("7", die) is None
    assert parse_face("miss", die) is None
