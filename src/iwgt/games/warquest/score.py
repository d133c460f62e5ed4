"""Victory points and the end of a WarQuest game (WQ-OB-03, WQ-MS-38/39 designed).

VP: quests (card VP), conquest cards (card VP), battles won (1 each) are kept in ``Player.vp``; ``vp``
power cards add their VP while held. The Emperor (four sacred quests) wins at once; otherwise, after the
last round or the last event, the most VP wins; ties: most sacred quests, then most gold, then shared.
"""

from __future__ import annotations

from iwgt.core.protocol import Result
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import WqState

SEAT_NAMES = (
    "the Red Warlord",
    "the Blue Warlord",
    "the Green Warlord",
    "the Yellow Warlord",
    "the Purple Warlord",
)
"""Each seat's name, in seat order (wq-spec: Players)."""
SEAT_COLOURS = ("#c0392b", "#2e6fd8", "#27ae60", "#d4ac0d", "#8e44ad")
"""Each seat's colour, in seat order."""
SEAT_SIDES = ("red", "blue", "green", "yellow", "purple")
"""Each seat's side as a result names it (a headless game's summary says ``"winner": "blue"``)."""


def sacred(state: WqState, seat: int) -> int:
    """How many sacred quests a warlord has completed."""
    quests = rules().quests
    return sum(1 for q in state.players[seat].done_quests if quests[q].sacred)


def total_vp(state: WqState, seat: int) -> int:
    """A warlord's victory points: those gained plus the ``vp`` powers held (WQ-MS-38)."""
    from iwgt.games.warquest import powers

    return state.players[seat].vp + powers.power_sum(state, seat, "vp")


def emperor(state: WqState) -> int | None:
    """The first seat with the scenario's number of sacred quests done, else None (WQ-OB-03)."""
    for s in range(state.n):
        if sacred(state, s) >= state.scenario.emperor_quests:
            return s
    return None


def standings(state: WqState) -> list[tuple[int, int, int, int]]:
    """(vp, sacred, gold, seat) per seat, best first."""
    rows = [(total_vp(state, s), sacred(state, s), state.players[s].gold, s) for s in range(state.n)]
    return sorted(rows, key=lambda r: (-r[0], -r[1], -r[2], r[3]))


def _quests(n: int) -> str:
    return f"{n} sacred quest" + ("" if n == 1 else "s")


def tie_break(rows: list[tuple[int, int, int, int]]) -> str | None:
    """What decided between warlords tied on the most VP (``standings`` rows, best first), in words:
    ``20 VP each; the Blue Warlord has more sacred quests (2 to 1)`` (WQ-MS-39); None when not tied."""
    vp, holy, gold, first = rows[0]
    tied = [r for r in rows if r[0] == vp]
    if len(tied) == 1:
        return None
    _, next_holy, next_gold, _ = tied[1]
    if holy > next_holy:
        return f"{vp} VP each; {SEAT_NAMES[first]} has more sacred quests ({holy} to {next_holy})"
    if gold > next_gold:
        return f"{vp} VP and {_quests(holy)} each; {SEAT_NAMES[first]} has more gold ({gold} to {next_gold})"
    return f"{vp} VP, {_quests(holy)} and {gold} gold each"


def final_result(state: WqState, reason: str | None = None) -> Result:
    """The result: the Emperor, else the most VP with the tie-breaks (several winners when still tied); the
    reason says which tie-break decided."""
    e = emperor(state)
    if e is not None:
        why = reason or f"{SEAT_NAMES[e]} completes {sacred(state, e)} sacred quests and is crowned Emperor"
        return Result.win([e], state.n, why, side=SEAT_SIDES[e], title=SEAT_NAMES[e])
    rows = standings(state)
    best = rows[0][:3]
    winners = [r[3] for r in rows if r[:3] == best]
    why = reason or tie_break(rows) or f"the most victory points ({best[0]} VP) when the last round is over"
    if len(winners) == 1:
        w = winners[0]
        return Result.win(winners, state.n, why, side=SEAT_SIDES[w], title=SEAT_NAMES[w])
    names = " and ".join(SEAT_NAMES[w] for w in winners)
    return Result.win(winners, state.n, f"{names} share the victory: {why}", side=None, title=None)
