"""The WarQuest turn and round (WQ-TU-01..06): three actions, the end of a turn, the round's event, the end.

``settle`` runs after every step: it ends a turn whose actions are spent, finishes a round whose event is
resolved, and ends the game (the Emperor at once; else after the last round or the last event).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import Event
from iwgt.games.warquest.actions import counts
from iwgt.games.warquest.events import GameOver, IncomeGained, TroopsWentHome, TurnBegan, TurnEnded
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.score import emperor, final_result
from iwgt.games.warquest.state import TurnMarks, WqState

SETTLE_PASSES = 1000
"""An engineering bound (not a rule) on the passes of ``settle``: a pass ends a turn or a round, and a game
has at most 25 rounds of 5 turns; hitting it would mean a bug, never a long game."""


def begin_game(state: WqState) -> tuple[WqState, list[Event]]:
    """Every warlord has placed: round 1 begins with the starting player (WQ-SU-18)."""
    return start_turn(replace(state, round=1), state.first)


def start_turn(state: WqState, seat: int) -> tuple[WqState, list[Event]]:
    """A warlord's turn begins: 3 actions (4 with an extra-action card), income powers pay (designed)."""
    from iwgt.games.warquest import powers

    player = state.players[seat]
    actions = rules().constants.ACTIONS_PER_TURN + (1 if player.extra_action else 0)
    income = powers.power_sum(state, seat, "income")
    player = replace(player, extra_action=False, gold=player.gold + income)
    players = tuple(player if p.seat == seat else p for p in state.players)
    state = replace(state, phase="turn", seat=seat, players=players, marks=TurnMarks(actions_left=actions))
    events: list[Event] = [TurnBegan(seat, state.round, actions)]
    if income:
        events.append(IncomeGained(seat, income))
    return state, events


def use_action(state: WqState) -> WqState:
    """One of the turn's actions is spent (WQ-AC-01)."""
    return replace(state, marks=replace(state.marks, actions_left=state.marks.actions_left - 1))


def send_home(state: WqState, seat: int) -> tuple[WqState, list[Event]]:
    """Troops of ``seat`` in a region with none of its leaders go back to the pool (WQ-MV-09)."""
    led = {ld.region for ld in state.leaders if ld.seat == seat}
    gone: dict[str, list[int]] = {}
    kinds: dict[str, dict[str, int]] = {}
    for t in state.troops:
        if t.seat == seat and t.region not in led:
            gone.setdefault(t.region, []).append(t.id)
            kinds.setdefault(t.region, {}).setdefault(t.kind, 0)
            kinds[t.region][t.kind] += 1
    if not gone:
        return state, []
    ids = {i for v in gone.values() for i in v}
    troops = tuple(t for t in state.troops if t.id not in ids)
    wraith = state.wraith_seat
    if any(t.kind == "wraith_king" for t in state.troops if t.id in ids):
        wraith = None  # he went home with them: back to the pool (the Black Crown recalls him at his tomb)
    events: list[Event] = [
        TroopsWentHome(seat, region, tuple(gone[region]), counts(kinds[region])) for region in sorted(gone)
    ]
    return replace(state, troops=troops, wraith_seat=wraith), events


def end_turn(state: WqState) -> tuple[WqState, list[Event]]:
    """The end of a turn, in order: troops without a leader go home, conquest cards score, then the next
    warlord, or the round's event after the last (WQ-MV-09, WQ-MS-34, WQ-TU-05/06)."""
    from iwgt.games.warquest import conquest

    seat = state.seat
    state, events = send_home(state, seat)
    state, scored = conquest.score_conquests(state, seat)
    events += scored
    events.append(TurnEnded(seat))
    state = replace(state, marks=TurnMarks())
    nxt = (seat + 1) % state.n
    if nxt != state.first:
        state, more = start_turn(state, nxt)
        return state, events + more
    state, more = turn_event(state)
    return state, events + more


def turn_event(state: WqState) -> tuple[WqState, list[Event]]:
    """Every warlord has had a turn: the top event card is turned and executed (WQ-TU-06, happenings.py)."""
    from iwgt.games.warquest import happenings

    return happenings.turn_event(replace(state, phase="event"))


def game_over(state: WqState, reason: str | None = None) -> tuple[WqState, list[Event]]:
    """The game ends: the result by victory points (or the Emperor) (WQ-OB-03, WQ-MS-39)."""
    result = final_result(state, reason)
    from iwgt.games.warquest.score import total_vp

    vp = tuple(total_vp(state, s) for s in range(state.n))
    state = replace(state, phase="over", result=result, pending=(), marks=TurnMarks())
    return state, [GameOver(result.winners, result.reason, vp)]


def settle(state: WqState) -> tuple[WqState, list[Event]]:
    """Carry the game on until someone must act: end a spent turn, finish a resolved round, end the game."""
    events: list[Event] = []
    for _ in range(SETTLE_PASSES):  # each pass ends a turn or a round: bounded by the game's length
        if state.phase in ("over", "setup", "place"):
            return state, events
        if emperor(state) is not None:
            state, more = game_over(state)
            return state, events + more
        if state.battle is not None or state.pending:
            return state, events
        if state.phase == "turn" and state.marks.actions_left <= 0:
            state, more = end_turn(state)
            events += more
            continue
        if state.phase == "event":
            if state.round >= state.scenario.rounds or not state.decks.events:
                state, more = game_over(state)
                return state, events + more
            state, more = start_turn(replace(state, round=state.round + 1), state.first)
            events += more
            continue
        return state, events
    raise RuntimeError("settle did not settle")  # a programming error: every pass makes progress
