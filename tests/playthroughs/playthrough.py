"""Playthrough goldens: every registered game, every shipped scenario, played by a seeded random policy.

In the manner of OpenSpiel's playthroughs, a golden file is a seeded game written step by step: who acts (or
the die and its face), each seat's observation and the spectator's, the number of legal actions of the seat to
act, the action taken, the events it brought, and the position's notation. The policy is
``iwgt.ai.random_bot.RandomBot(game, SEED)`` for every seat (not the game's own bot, so that improving a bot
does not churn the rules' goldens) and the dice are ``iwgt.core.chance.SeededDice(SEED)``, played through
``iwgt.core.match.Match``. A change to a rule, a decided number, a scenario, an observation or an event
changes a golden: that is the point. Review the difference, then regenerate and commit the files with the
change::

    IWGT_REGEN_PLAYTHROUGHS=1 .venv/bin/pytest tests/playthroughs

(or ``.venv/bin/python tests/playthroughs/playthrough.py``, which runs exactly that: the tests' own
``conftest.py`` registers the example game Pig, so the goldens are written where every game is registered).

The file format, one line each, ``#`` lines being the header::

    step N                                  the step's number in the match's record (dice steps included)
      notation <text>                       the position before the step, in the game's notation (if it has
                                            one): in full at step 0, at a new turn, every 50 steps and at
                                            the end; else only its sections (" | ") that changed:
      notation - <section>                  ... a section as it was (gone, or changed into the next + line)
      notation + <section>                  ... a section as it is now
      obs None = <path> <json>              the spectator's observation: in full at step 0, then what changed
      obs None - <path>                     ... a key that is gone
      obs 2 = <path> <json>                 seat 2's observation changes as the spectator's (at step 0: is
      obs 2 - <path>                        the spectator's), but for the lines written for it: its own
      obs 2 not = <path> <json>             changes, and a change of the spectator's it did not get (what
                                            is hidden from it, or its own view of a key)
      seat 1 acts, 23 legal                 or: die d6 "purpose" (secret) -> 4
      action <json>
      event <json>                          each event of the step, as Event.to_json() (private ones too)
    end                                     the position after the last step, then the result or the cap

An observation is flattened to key paths (``units.3.cell``): objects are opened key by key, and so are lists
holding objects; any other list is one value. Long scenarios are capped at a number of steps (``CAPS``),
written in the header.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from iwgt.ai.random_bot import RandomBot
from iwgt.core.chance import SeededDice
from iwgt.core.digest import digest
from iwgt.core.legal_cache import LegalActions
from iwgt.core.match import Match
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event, Seat
from iwgt.core.registry import get_plugin

SEED = 1
"""The seed of the policy and of the dice."""
DEFAULT_CAP = 700
"""Steps written at most (dice steps included), unless ``CAPS`` says otherwise: whole games, mostly."""
CAPS: dict[tuple[str, str], int] = {
    ("valhalla", "raid"): 80,  # four players and the dearest legal actions: two turns, for a quick test
    # Sixty units: the first turns of the battle (deployment, moves, contacts, a combat round or more) keep
    # the file reviewable; the whole battle would be several megabytes of unit moves.
    ("valkyrx", "great_battle"): 300,
    # Four and five warlords: every seat's observation at the start (hands, market, pools) and a battle's
    # questions to two seats; the placements and the first rounds keep both files under 200 kB.
    ("warquest", "myrathia"): 100,
    ("warquest", "five_warlords"): 100,
}
"""Scenarios written for fewer steps, to keep the files small and the test quick."""
FULL_EVERY = 50
"""Steps at most between two notations written in full (between them, only the sections that changed)."""
GOLDEN_DIR = Path(__file__).parent / "goldens"
REGEN_ENV = "IWGT_REGEN_PLAYTHROUGHS"
REGEN_COMMAND = f"{REGEN_ENV}=1 .venv/bin/pytest tests/playthroughs"


def golden_path(game: str, scenario: str) -> Path:
    """Where a scenario's golden lives."""
    return GOLDEN_DIR / game / f"{scenario}.txt"


def cap_of(game: str, scenario: str) -> int:
    """The number of steps a scenario's golden is capped at."""
    return CAPS.get((game, scenario), DEFAULT_CAP)


# ---------------------------------------------------------------- observations as key paths


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """An observation as ``(key path, JSON text)`` leaves: objects and lists of objects opened."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
        for i, v in enumerate(value):
            yield from flatten(v, f"{prefix}.{i}" if prefix else str(i))
    else:
        yield prefix, _dumps(value)


def _opened(value: Any) -> str | None:
    """How ``flatten`` opens a value: "dict", "list" (of objects), or None for a leaf."""
    if isinstance(value, dict) and value:
        return "dict"
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        return "list"
    return None


def _changes(before: Any, after: Any, prefix: str, put: list[str], gone: list[str]) -> None:
    if before == after:  # most of an observation does not change: skipped whole
        return
    kind = _opened(after)
    if kind is not None and kind == _opened(before):
        keys_after = list(after) if kind == "dict" else list(range(len(after)))
        keys_before = list(before) if kind == "dict" else list(range(len(before)))
        present = set(keys_before)
        for k in keys_after:
            path = f"{prefix}.{k}" if prefix else str(k)
            if k in present:
                _changes(before[k], after[k], path, put, gone)
            else:
                put.extend(f"= {p} {t}" for p, t in flatten(after[k], path))
        now = set(keys_after)
        for k in keys_before:
            if k not in now:
                gone.extend(f"- {p}" for p, _ in flatten(before[k], f"{prefix}.{k}" if prefix else str(k)))
        return
    old = dict(flatten(before, prefix))
    new = dict(flatten(after, prefix))
    put.extend(f"= {p} {t}" for p, t in new.items() if old.get(p) != t)
    # A leaf opened into keys (``result null`` becoming ``result.side ...``) is replaced, not gone.
    gone.extend(f"- {p}" for p in old if p not in new and not any(k.startswith(f"{p}.") for k in new))


def diff(before: Any, after: Any) -> list[str]:
    """What changed from one observation to the next, as key paths: ``= path json`` for a new or changed
    leaf, ``- path`` for one that is gone (after the others)."""
    put: list[str] = []
    gone: list[str] = []
    _changes(before, after, "", put, gone)
    return put + gone


def _path(change: str) -> str:
    """The key path of a ``= path json`` or ``- path`` line."""
    return change.split(" ", 2)[1]


# ---------------------------------------------------------------- the playthrough


class _Remembered:
    """The game, its legal actions remembered per (state, seat): the step's count and the bot's choice come
    from one call (legal actions are the dearest call of a step)."""

    def __init__(self, game: AnyGame) -> None:
        self._game = game
        self._legal = LegalActions(4)

    def legal_actions(self, state: Any, seat: Seat) -> Any:
        return self._legal.get(self._game, state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def notation_changes(before: str, after: str) -> list[str]:
    """What changed from one notation to the next, section by section (sections are separated by " | "):
    ``- section`` for one gone or changed, ``+ section`` for its new text, in the notation's order."""
    old, new = before.split(" | "), after.split(" | ")
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op != "equal":
            out.extend(f"- {s}" for s in old[i1:i2])
            out.extend(f"+ {s}" for s in new[j1:j2])
    return out


class _Writer:
    """Writes the positions and events, keeping each observer's last observation and the last notation."""

    def __init__(self, game: AnyGame, notation: Any, observers: list[Seat | None]) -> None:
        self.game = game
        self.notation = notation
        self.observers = observers
        self.last: dict[Seat | None, Any] = {}
        self.last_text: str | None = None
        self.last_turn: Any = None
        self.since_full = 0
        self.lines: list[str] = []

    def _notation(self, state: Any, full: bool) -> None:
        text = self.notation(state)
        if text is None:
            return
        turn = self.game.status(state).turn
        full = full or self.last_text is None or turn != self.last_turn or self.since_full >= FULL_EVERY
        if full:
            self.lines.append(f"  notation {text}")
            self.since_full = 0
        else:
            assert self.last_text is not None
            self.lines.extend(f"  notation {c}" for c in notation_changes(self.last_text, text))
            self.since_full += 1
        self.last_text, self.last_turn = text, turn

    def position(self, state: Any, *, full: bool = False) -> None:
        self._notation(state, full)
        now = {seat: self.game.observe(state, seat) for seat in self.observers}
        first = not self.last
        changes = {
            seat: [f"= {p} {t}" for p, t in flatten(now[seat])] if first else diff(self.last[seat], now[seat])
            for seat in self.observers
        }
        spectator = changes[None]
        self.lines.extend(f"  obs None {c}" for c in spectator)
        shared = set(spectator)
        for seat in self.observers:
            if seat is None:
                continue
            own = [c for c in changes[seat] if c not in shared]
            mine = set(changes[seat])
            overridden = {_path(c) for c in own}
            missed = [c for c in spectator if c not in mine and _path(c) not in overridden]
            if missed and not first:  # a change the seat already had (its own view, now shown to all) is none
                before = dict(flatten(self.last[seat]))
                missed = [
                    c for c in missed if (c.split(" ", 2)[2] if c[0] == "=" else None) != before.get(_path(c))
                ]
            self.lines.extend(f"  obs {seat} {c}" for c in own)
            self.lines.extend(f"  obs {seat} not {c}" for c in missed)
        self.last = now

    def events(self, events: list[Event]) -> None:
        self.lines.extend(f"  event {_dumps(e.to_json())}" for e in events)


def playthrough(game_name: str, scenario: str, seed: int = SEED, cap: int | None = None) -> str:
    """The golden text of one scenario's playthrough."""
    plugin = get_plugin(game_name)
    game = plugin.game
    scen = game.load_scenario(scenario)
    cap = cap_of(game_name, scenario) if cap is None else cap
    seats = game.seats(scen)
    match = Match(game, scen, SeededDice(seed), seed)
    remembered = _Remembered(game)
    bot = RandomBot(remembered, seed)  # type: ignore[arg-type]  # the game, with its legal actions remembered
    writer = _Writer(game, plugin.notation, [None, *range(len(seats))])
    state = match.state  # the position written last (the match may have rolled dice past the cap)
    step = 0
    while step < cap and game.to_move(state) is not None:
        seat = game.to_move(state)
        if seat == CHANCE:
            fold = match.propose_chance()
            match.adopt(fold)
            for taken in fold.taken[
                : cap - step
            ]:  # each die a step of its own, its state rebuilt from the face
                writer.lines.append(f"step {step}")
                writer.position(state)
                die = game.chance_outcomes(state)
                assert die is not None
                face = int(taken.step.action["face"])
                secret = " (secret)" if die.secret else ""
                writer.lines.append(f"  die d{die.sides} {_dumps(die.purpose)}{secret} -> {face}")
                writer.events(taken.events)
                state, _ = game.apply(state, ChanceOutcome(face))
                assert digest(game.state_to_json(state)) == taken.step.digest, "a die's step did not replay"
                step += 1
            continue
        writer.lines.append(f"step {step}")
        writer.position(state)
        legal = remembered.legal_actions(state, seat)
        action = bot.choose(state, seat)
        writer.lines.append(f"  seat {seat} acts, {len(legal)} legal")
        writer.lines.append(f"  action {_dumps(game.action_to_json(action))}")
        writer.events(match.act(seat, action, then_chance=False))
        state = match.state
        step += 1
    writer.lines.append("end")
    writer.position(state, full=True)
    result = game.result(state)
    if result is not None:
        writer.lines.append(f"  result {_dumps(result.to_json())}")
    else:
        writer.lines.append(f"  capped: the game goes on after step {step - 1}")
    header = [
        f"# Playthrough of {game_name} / {scenario} ({plugin.facts.title}); rules {game.rules_version}",
        f"# Policy: iwgt.ai.random_bot.RandomBot(game, seed={seed}) for every seat; dice:"
        f" iwgt.core.chance.SeededDice(seed={seed}); played through iwgt.core.match.Match",
        f"# Seats: {'; '.join(f'{i} {name}' for i, name in enumerate(seats))}",
        f"# Capped at {cap} steps"
        + (f"; the game ended after {step} steps" if result is not None else "; the game goes on beyond"),
        "# Format: tests/playthroughs/playthrough.py; regenerate: " + REGEN_COMMAND,
    ]
    return "\n".join([*header, *writer.lines]) + "\n"


def regenerate() -> int:
    """Write every golden through the tests (where every game, Pig included, is registered)."""
    import pytest

    os.environ[REGEN_ENV] = "1"
    return int(pytest.main([str(Path(__file__).parent), "-q"]))


if __name__ == "__main__":
    sys.exit(regenerate())
