"""Tests for iwgt.core.chance: the reference generator, dice specs and the three dice sources."""

from __future__ import annotations

from fractions import Fraction

import pytest

from iwgt.core.chance import RNG_ALGORITHM, Die, ScriptedDice, SeededDice, SplitMix64
from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import ChanceOutcome

# Published reference outputs of Vigna's splitmix64.c (https://prng.di.unimi.it/splitmix64.c) for a
# state of 0; they are also the default state of xoshiro256** seeded through SplitMix64. If these
# fail, the generator changed, and every seeded record ever saved would replay differently.
SEED0_REFERENCE = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC)
MASK64 = (1 << 64) - 1


def test_the_algorithm_is_named_for_records() -> None:
    assert RNG_ALGORITHM == "splitmix64"


def test_splitmix64_matches_the_published_reference_for_seed_0() -> None:
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(4)] == list(SEED0_REFERENCE)


def test_splitmix64_seed_is_taken_modulo_2_to_the_64() -> None:
    a, b = SplitMix64(1 << 64), SplitMix64(0)
    assert [a.next64() for _ in range(3)] == [b.next64() for _ in range(3)]
    assert SplitMix64(-1).state == MASK64
    c, d = SplitMix64(-1), SplitMix64(MASK64)
    assert [c.next64() for _ in range(3)] == [d.next64() for _ in range(3)]


def test_splitmix64_outputs_are_64_bit_and_seed_dependent() -> None:
    outs = [SplitMix64(seed).next64() for seed in range(50)]
    assert all(0 <= x <= MASK64 for x in outs)
    assert len(set(outs)) == 50


def test_below_refuses_a_non_positive_bound() -> None:
    rng = SplitMix64(3)
    for n in (0, -1, -6):
        with pytest.raises(ValueError, match="positive"):
            rng.below(n)


def test_below_1_is_always_0() -> None:
    rng = SplitMix64(11)
    assert {rng.below(1) for _ in range(100)} == {0}


@pytest.mark.parametrize("n", [2, 3, 6, 7, 10, 20, 100, 1000, (1 << 63) + 1, 1 << 64])
def test_below_stays_in_range(n: int) -> None:
    rng = SplitMix64(n)
    draws = [rng.below(n) for _ in range(2000)]
    assert min(draws) >= 0
    assert max(draws) < n


def test_below_on_the_reference_outputs_is_a_plain_modulus() -> None:
    # None of the first reference outputs is in the rejected top sliver for a d6, so below(6) is x % 6.
    rng = SplitMix64(0)
    assert [rng.below(6) for _ in range(4)] == [x % 6 for x in SEED0_REFERENCE]


def test_below_rejects_the_biased_top_of_the_range() -> None:
    class Scripted(SplitMix64):
        def __init__(self, outputs: list[int]) -> None:
            super().__init__(0)
            self.outputs = outputs

        def next64(self) -> int:
            return self.outputs.pop(0)

    # 2**64 % 3 == 1, so the single value 2**64 - 1 would favour face 0 and must be redrawn.
    rng = Scripted([MASK64, MASK64, 5])
    assert rng.below(3) == 2
    assert rng.outputs == []
    # The largest unbiased value is kept.
    rng = Scripted([MASK64 - 1])
    assert rng.below(3) == (MASK64 - 1) % 3


def test_below_is_roughly_uniform_for_a_d6() -> None:
    # Fixed seed: deterministic, so this cannot flake. 20.52 is the 0.1% critical value for 5 dof.
    rng = SplitMix64(20240601)
    draws = 60000
    counts = [0] * 6
    for _ in range(draws):
        counts[rng.below(6)] += 1
    expected = draws / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 20.52, counts
    assert all(abs(c - expected) < 0.04 * expected for c in counts), counts


@pytest.mark.parametrize("sides", [1, 2, 3, 6, 7, 10, 12, 20, 100])
def test_die_outcomes_are_exact_and_sum_to_one(sides: int) -> None:
    outcomes = Die(sides, "test").outcomes()
    assert [face for face, _ in outcomes] == list(range(1, sides + 1))
    assert all(isinstance(p, Fraction) for _, p in outcomes)
    assert all(p == Fraction(1, sides) for _, p in outcomes)
    total = sum((p for _, p in outcomes), Fraction(0))
    assert total == 1
    assert isinstance(total, Fraction)


def test_die_hints() -> None:
    assert Die(6, "x").hint() == "roll a d6"
    assert "d100" in Die(100, "x").hint()
    assert "coin" in Die(2, "x").hint()


LABELS = ("1", "1", "2", "miss", "miss", "miss")


def test_a_labelled_die_keeps_its_outcomes_and_says_its_colour() -> None:
    # A game's own die: the outcome is still the face's number (records and seeded rolls unchanged); only
    # what a player is shown changes.
    die = Die(6, "the shot", faces=LABELS, colour="white")
    assert die.outcomes() == Die(6, "the shot").outcomes()
    assert die.hint() == "roll a white die"
    assert [die.label(f) for f in range(1, 7)] == list(LABELS)
    assert Die(6, "x").label(4) == "4"
    assert "miss" in Die(6, "x", faces=LABELS).hint()  # labels without a colour: the faces are named
    assert die != Die(6, "the shot")  # the labels are part of the die asked for
    assert SeededDice(5).roll(die) == SeededDice(5).roll(Die(6, "the shot"))


@pytest.mark.parametrize("count", [1, 5, 7])
def test_face_labels_must_match_the_sides(count: int) -> None:
    with pytest.raises(ValueError, match="6 face labels"):
        Die(6, "x", faces=tuple("abcdefg"[:count]))


def test_die_is_a_frozen_value() -> None:
    assert Die(6, "morale") == Die(6, "morale")
    assert Die(6, "morale") != Die(6, "combat")
    with pytest.raises(AttributeError):
        Die(6, "x").sides = 8  # type: ignore[misc]


def _faces(dice: SeededDice, dice_specs: list[Die]) -> list[int]:
    return [dice.roll(d) for d in dice_specs]


MIXED = [Die(s, "mixed") for s in (6, 100, 2, 10, 6, 20)] * 50


def test_seeded_dice_same_seed_same_faces() -> None:
    assert _faces(SeededDice(42), MIXED) == _faces(SeededDice(42), MIXED)
    assert SeededDice(42).kind == "seeded"
    assert SeededDice(42).seed == 42


def test_seeded_dice_different_seed_different_sequence() -> None:
    base = _faces(SeededDice(1), MIXED)
    for seed in (2, 3, 1 << 40):
        assert _faces(SeededDice(seed), MIXED) != base


def test_seeded_dice_faces_are_on_the_die() -> None:
    dice = SeededDice(9)
    for d in MIXED:
        assert 1 <= dice.roll(d) <= d.sides
    assert {dice.roll(Die(6, "x")) for _ in range(300)} == {1, 2, 3, 4, 5, 6}


def test_seeded_dice_follow_the_reference_generator() -> None:
    dice = SeededDice(0)
    assert [dice.roll(Die(6, "x")) for _ in range(4)] == [x % 6 + 1 for x in SEED0_REFERENCE]


def test_scripted_dice_give_their_faces_in_order() -> None:
    dice = ScriptedDice([3, 1, 6])
    assert dice.kind == "scripted"
    assert [dice.roll(Die(6, "x")) for _ in range(3)] == [3, 1, 6]


@pytest.mark.parametrize("face", [0, 7, -1, 100])
def test_scripted_dice_refuse_a_face_not_on_the_die(face: int) -> None:
    dice = ScriptedDice([face])
    with pytest.raises(ValueError) as exc:
        dice.roll(Die(6, "the ballista's aim"))
    assert f"face {face}" in str(exc.value)
    assert "d6" in str(exc.value)
    assert "the ballista's aim" in str(exc.value)


def test_scripted_dice_refuse_to_run_out() -> None:
    dice = ScriptedDice([2])
    assert dice.roll(Die(2, "first")) == 2
    with pytest.raises(ValueError) as exc:
        dice.roll(Die(2, "who moves first"))
    assert "no scripted face left" in str(exc.value)
    assert "who moves first" in str(exc.value)


@pytest.mark.parametrize("face", ["3", 2.5, True, None])
def test_a_chance_outcome_refuses_a_face_that_is_not_a_whole_number(face: object) -> None:
    """A face that is not an int is a malformed action at the door, never a TypeError inside a game."""
    with pytest.raises(MalformedAction, match="whole number"):
        ChanceOutcome(face)  # type: ignore[arg-type]
