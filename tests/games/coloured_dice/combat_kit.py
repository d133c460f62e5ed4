"""Hand-built states for the combat tests: test profiles (set by the ``combat_profiles`` fixture), units laid
out as blocks, and a driver that feeds scripted faces and answers through ``resolve``.

The profiles are the test's own (not the shipped armies), so that every number in a test is one the test
chose: the javelin men of CD-RA-03..06 are skill 0 with 16 models, the hero of CD-CH-17 has 2 red bear-wound
dice, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from iwgt.core.protocol import CHANCE, ChanceOutcome, Event
from iwgt.games.coloured_dice import combat_common, magic_bonus, resolve
from iwgt.games.coloured_dice.actions import Action
from iwgt.games.coloured_dice.formation import block_tray, cell_size
from iwgt.games.coloured_dice.morale import starting_us
from iwgt.games.coloured_dice.rules import Profile
from iwgt.games.coloured_dice.state import CdState, TerrainPiece, Unit

ARMY = "test"

_BASE: dict[str, Any] = {"strength": 3, "points": 5, "designed": "a test profile"}
PROFILES: dict[str, dict[str, Any]] = {
    # 10 men with axes (one white die each), armour 0, quick (slowness 1): the CD-FI-07 attackers.
    "axemen": {
        "kind": "infantry",
        "models": 10,
        "armour": 0,
        "us": 7,
        "us_kind": "Us",
        "slowness": 1,
        "weapons": ["axe"],
        "abilities": ["formation"],
    },
    # 12 men in leather with axes, armour 1, slow (slowness 3): the CD-FI-07 target.
    "militia": {
        "kind": "infantry",
        "models": 12,
        "armour": 1,
        "us": 7,
        "us_kind": "Us",
        "slowness": 3,
        "weapons": ["axe"],
        "abilities": ["formation"],
    },
    # The same with a leader: Us 7 doubled to 14 (CD-MO-12), and the army's banner.
    "guard": {
        "kind": "infantry",
        "models": 12,
        "armour": 1,
        "us": 7,
        "us_kind": "Us",
        "slowness": 3,
        "weapons": ["axe"],
        "abilities": ["formation", "banner"],
        "leader": True,
    },
    # 16 javelin men, excellent shooters (skill 0: CD-RA-04 decision), one blue die each, range 8".
    "javelins": {
        "kind": "infantry",
        "models": 16,
        "armour": 0,
        "us": 7,
        "us_kind": "Us",
        "slowness": 2,
        "weapons": ["javelin"],
        "shooting": 0,
    },
    # A hero with 2 red bear-wound dice per battle (CD-CH-17) and 2 hero points, the army's general.
    "hero": {
        "kind": "character",
        "models": 1,
        "armour": 1,
        "us": 8,
        "us_kind": "iUs",
        "slowness": 1,
        "weapons": ["hero_sword"],
        "hero": 2,
        "abilities": ["general"],
        "strength": 4,
        "bear_wound": {"dice": 2, "colour": "red"},
    },
    # A troll: Body 3, armour 2, three orange dice.
    "troll": {
        "kind": "monster",
        "models": 1,
        "armour": 2,
        "us": 8,
        "us_kind": "iUs",
        "slowness": 4,
        "body": 3,
        "weapons": ["troll_club"],
        "strength": 6,
    },
    # A big leader-doubled unit with a bonus: starting Us 2 x 10 + 5 = 25 (CD-GM-05).
    "host": {
        "kind": "infantry",
        "models": 30,
        "armour": 0,
        "us": 10,
        "us_kind": "Us",
        "slowness": 3,
        "weapons": ["axe"],
        "abilities": ["formation"],
        "leader": True,
        "leader_bonus": 5,
    },
}


def test_profile(key: str) -> Profile:
    """One of the test profiles."""
    data = {**_BASE, **PROFILES[key], "key": key, "name": key.title()}
    return Profile.model_validate(data)


test_profile.__test__ = False  # type: ignore[attr-defined]


@pytest.fixture
def combat_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The combat modules read the test profiles (army ``test``) instead of the shipped armies."""
    real = combat_common.profile

    def lookup(army: str, key: str) -> Profile:
        return test_profile(key) if army == ARMY else real(army, key)

    monkeypatch.setattr(combat_common, "profile", lookup)
    monkeypatch.setattr(magic_bonus, "profile", lookup)


@dataclass(frozen=True)
class Spec:
    """The scenario file's part the magic queries read (who plays first)."""

    first: int = 0


@dataclass(frozen=True)
class Table:
    """A stand-in scenario: the table's size and rounds are all the combat modules read of it."""

    width: float = 48.0
    height: float = 48.0
    rounds: int = 6
    name: str = "test"
    spec: Spec = Spec()


def unit(
    uid: int,
    seat: int,
    key: str,
    centre: tuple[float, float],
    *,
    facing: float | None = None,
    models: int | None = None,
    files: int | None = None,
    order: str = "loose",
    **kw: Any,
) -> Unit:
    """A unit of a test profile laid out as a block (files default: one rank)."""
    p = test_profile(key)
    n = p.models if models is None else models
    f = n if files is None else files
    kind = "infantry" if p.kind == "character" else p.kind
    face = (0.0 if seat == 0 else 180.0) if facing is None else facing
    tray = block_tray(centre, face, n, f, cell_size(kind, order))
    bear = p.bear_wound.dice if p.bear_wound is not None else 0
    base: dict[str, Any] = {"hero_left": p.hero, "bear_left": bear, "start_us": starting_us(p)}
    base.update(kw)
    return Unit(uid, seat, ARMY, key, key.title(), n, n, tray, f, order, **base)


def state(*units: Unit, seat: int = 0, features: tuple[TerrainPiece, ...] = ()) -> CdState:
    """A battle state of these units (ids must be their positions)."""
    return CdState(scenario=Table(), units=tuple(units), features=features, seat=seat)  # type: ignore[arg-type]


def drive(step: resolve.Step, script: list[int | Action]) -> tuple[CdState, list[Event]]:
    """Feed ``script`` (ints: die faces 1..6; actions: answers) to the pending stack, checking each is wanted
    (a face only when the dice are to roll, an answer only when on offer). Stops when the script ends."""
    st, events = step
    events = list(events)
    for item in script:
        assert st.pending, f"nothing pending, but {item!r} is left in the script"
        if isinstance(item, int):
            assert resolve.to_move(st) == CHANCE, f"a question is asked ({st.top}), not a die: {item}"
            st, more = resolve.advance(st, ChanceOutcome(item))
        else:
            seat = resolve.to_move(st)
            assert seat != CHANCE, f"the dice roll now ({st.top}), not an answer {item!r}"
            assert item in resolve.questions(st, seat), f"{item!r} not offered: {resolve.questions(st, seat)}"
            st, more = resolve.advance(st, item)
        events += more
    return st, events


def of(events: list[Event], kind: type) -> list[Any]:
    """The events of one class."""
    return [e for e in events if isinstance(e, kind)]
