"""The leak test of the physical table's lights: a frame never depends on a secret (issue 16, section 2).

Over every step of a ``sorcery`` game of the hex game played by its bots (the Grima concealed, the Sand Worm
tunnelling, spells cast), for the frame with nothing in the air and for each public piece of the mover lifted
at that step: ``table_frame`` of the state equals ``table_frame`` of ``game.resample_hidden(state, None,
pick)`` for several picks (every fact hidden from a spectator redrawn: the hidden units' cells among them).

And no frame lights the cell of a hidden unit, unless the light is public anyway: a light may fall on such a
cell for a reason of its own (a spell's wave ring, a friendly piece's destination: a hidden unit's miniature
is off the table and blocks no one). The check: each light on a hidden unit's cell is also in the frame of a
redrawn state where no hidden unit stands on that cell (the frames being equal), so the light cannot come from
the unit. The other games with secrets (sealed bids, quest hands) are held to the same equality.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import iwgt.hardware
from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE, Event
from iwgt.core.registry import get_plugin
from iwgt.geometry.hexgrid import hex_to_offset
from iwgt.hardware.frames import Overlay, public_pieces, table_frame
from iwgt.hardware.layout import load_layout
from iwgt.hardware.places import Placement, placement
from iwgt.hardware.protocol import FrameLight, TableCell

PLUGIN = get_plugin("valkyrx")
GAME = PLUGIN.game
ADAPTER = PLUGIN.table()
LAYOUT = load_layout(Path(iwgt.hardware.__file__).parent / "data" / "table-16x12.toml")
PICKS = 3
"""Redrawn states per frame (more are drawn when every one left a hidden unit where it was)."""
QUICK_STEPS = 40
"""The default run's steps: the Grima conceals and the Sand Worm tunnels before, and a spell's wave falls on a
hidden unit's cell within them (seed 3)."""


@dataclass(frozen=True)
class Moment:
    """One step of the game: the state after it and the step's events (all of them; the frame filters)."""

    state: Any
    events: tuple[Event, ...]


@cache
def bot_game(seed: int, steps: int | None = None) -> tuple[Moment, ...]:
    """A seeded ``sorcery`` game played by the bots (its first ``steps`` steps; None: to its end), the
    opening's chance nodes answered first."""
    match = Match(GAME, GAME.load_scenario("sorcery"), SeededDice(seed), seed)
    moments = [Moment(match.state, tuple(match.resolve_chance()))]
    bots = {seat: PLUGIN.bot(seed * 10 + seat) for seat in (0, 1)}
    while (mover := GAME.to_move(match.state)) is not None and (steps is None or len(moments) <= steps):
        bot = bots[mover]
        assert bot is not None
        events = tuple(match.act(mover, bot.choose(match.state, mover)))
        moments.append(Moment(match.state, events))
    return tuple(moments)


def picker(seed: int) -> Callable[[int], int]:
    """An explicit source of choices for ``resample_hidden``."""
    rng = random.Random(seed)
    return lambda n: rng.randrange(n)


def hidden_cells(state: Any, place: Placement) -> dict[TableCell, int]:
    """The table cells of the units hidden on the board (their true cells, which only their owner sees)."""
    out = {}
    for u in state.units:
        if u.hidden and u.status == "active":
            cell = place.to_table(hex_to_offset(u.cell))
            if cell is not None:
                out[cell] = u.id
    return out


@dataclass
class Seen:
    """What the run met, so that it cannot pass without having tested anything."""

    frames: int = 0
    with_hidden: int = 0
    lifted: int = 0
    on_hidden: int = 0  # lights on a hidden unit's cell, each proven public


def check_moment(m: Moment, step: int, place: Placement, seen: Seen) -> None:
    """Every overlay of one step: nothing, then each public piece of the mover in the air."""
    state = m.state
    mover = GAME.to_move(state)
    overlays = [Overlay()]
    if mover is not None and mover != CHANCE:
        mine = [p for p in public_pieces(ADAPTER, GAME.observe(state, None)) if p.seat == mover]
        overlays += [Overlay(held=(p.unit, mover)) for p in mine]
        seen.lifted += len(mine)
    hidden = hidden_cells(state, place)
    seen.with_hidden += bool(hidden)
    variants = [GAME.resample_hidden(state, None, picker(1000 * step + k)) for k in range(PICKS)]
    for overlay in overlays:
        frame = table_frame(PLUGIN, GAME, state, m.events, place, overlay)
        seen.frames += 1
        for k, variant in enumerate(variants):
            assert table_frame(PLUGIN, GAME, variant, m.events, place, overlay) == frame, (
                f"step {step}, {overlay}: the frame changes with hidden facts (pick {k})"
            )
        for light in frame:
            if light.cell in hidden:
                prove_public(light, step, state, m.events, place, overlay, frame, variants)
                seen.on_hidden += 1


def prove_public(
    light: FrameLight,
    step: int,
    state: Any,
    events: tuple[Event, ...],
    place: Placement,
    overlay: Overlay,
    frame: list[FrameLight],
    variants: list[Any],
) -> None:
    """A light on a hidden unit's cell is public if a redrawn state with no hidden unit there has it too."""
    extra = (GAME.resample_hidden(state, None, picker(7_000_000 + 1000 * step + k)) for k in range(20))
    for i, variant in enumerate([*variants, *extra]):
        if light.cell in hidden_cells(variant, place):
            continue
        if i >= len(variants):  # a new draw: its frame must be the same as well
            assert table_frame(PLUGIN, GAME, variant, events, place, overlay) == frame
        assert light in table_frame(PLUGIN, GAME, variant, events, place, overlay)
        return
    pytest.fail(f"step {step}: {light} lights a hidden unit's cell and no redraw moved the unit away")


def run(seed: int, steps: int | None) -> Seen:
    moments = bot_game(seed, steps)
    place = placement(LAYOUT, ADAPTER.surface(GAME.observe(moments[0].state, None)))
    seen = Seen()
    for step, m in enumerate(moments):
        check_moment(m, step, place, seen)
    return seen


def test_frames_of_the_first_steps_of_a_sorcery_game_never_depend_on_a_secret() -> None:
    seen = run(3, QUICK_STEPS)
    assert seen.frames > QUICK_STEPS and seen.lifted > 100
    assert seen.with_hidden >= 10  # the Grima concealed and the Sand Worm underground for many steps
    assert seen.on_hidden > 0  # lights that fell on a hidden unit's cell were met, and proven public


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 5])
def test_frames_of_every_step_of_a_sorcery_game_never_depend_on_a_secret(seed: int) -> None:
    moments = bot_game(seed)
    assert GAME.is_terminal(moments[-1].state)  # the whole game, to its end
    seen = run(seed, None)
    assert seen.with_hidden >= 10 and seen.lifted > 100


@pytest.mark.parametrize(("game_name", "scenario"), [("anvil", "skirmish"), ("warquest", "duel")])
def test_the_other_games_with_secrets_light_nothing_that_hangs_on_them(game_name: str, scenario: str) -> None:
    """Sealed bids and army lists, quest hands and the decks' order: a seeded random game's frames are the
    same for every redraw of them (the frame with nothing in the air: these games have no pieces)."""
    plugin = get_plugin(game_name)
    game = plugin.game
    match = Match(game, game.load_scenario(scenario), SeededDice(2), 2)
    events = match.resolve_chance()
    place = placement(LAYOUT, plugin.table().surface(game.observe(match.state, None)))
    rng = random.Random(2)
    lit = 0
    for step in range(80):
        frame = table_frame(plugin, game, match.state, events, place, Overlay())
        lit += bool(frame)
        for k in range(2):
            variant = game.resample_hidden(match.state, None, picker(100 * step + k))
            assert table_frame(plugin, game, variant, events, place, Overlay()) == frame, f"step {step}"
        seat = game.to_move(match.state)
        if seat is None:
            break
        events = match.act(seat, rng.choice(list(game.legal_actions(match.state, seat))))
    assert lit > 10
