"""The turn-by-turn report of a Valhalla game, for ``iwgt simulate valhalla``: every card, activation, move,
charge, fight (faces and scores), shot, saving throw, coin and the result, in words."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from iwgt.core.protocol import Event
from iwgt.games.valhalla import events as ev
from iwgt.games.valhalla.state import ValhallaState

EFFECTS = {
    "killed": "goes to Valhalla",
    "wounded": "wounded",
    "two_shock": "2 shock",
    "one_shock": "1 shock",
    "none": "no effect",
}
"""A Dice of Death effect in the rules' words (VH-ST-02..06)."""


def _at(p: tuple[float, float]) -> str:
    return f"({p[0]:g}, {p[1]:g})"


def _hurts(shock: int, wounds: int) -> str:
    parts = []
    if shock:
        parts.append(f"{shock} shock")
    if wounds:
        parts.append("wounded")
    return ", ".join(parts) or "unhurt"


def print_events(console: Console, state: ValhallaState, events: Sequence[Event]) -> list[Event]:
    """Print the events in words, naming figures, things and sides from ``state``; nothing is left waiting
    (every Valhalla event is public, VH-MS-05), so the list returned is empty."""
    spec = state.scenario.spec
    fig = {f.id: f.name for f in state.figures}
    thing = {t.id: t.name for t in state.things}
    player = [p.name for p in spec.players]
    side = [s.name for s in spec.sides]
    for e in events:
        match e:
            case ev.TurnBegan(turn):
                console.rule(f"Turn {turn} of {spec.turn_limit}", style="dim")
            case ev.CardDealt():
                pass  # the cards are listed in playing order when they come up
            case ev.CardUp(seat, _card, label):
                console.print(f"[bold]{label}[/] {player[seat]}")
            case ev.CardPassed(seat, _card, label, reason):
                console.print(f"  {player[seat]} passes the {label}: {reason}")
            case ev.FigureActivated(f, actions):
                console.print(f"  {fig[f]} activates ({actions} action{'' if actions == 1 else 's'})")
            case ev.ActivationEnded():
                pass
            case ev.FigureMoved(f, path, cost):
                console.print(f'  {fig[f]} moves to {_at(path[-1])}, using {cost:g}" of movement')
            case ev.ObstacleCrossed(f, obstacle, to):
                kind = state.scenario.ground.obstacles[obstacle].kind
                console.print(f"  {fig[f]} crosses the {kind} to {_at(to)}")
            case ev.Charged(f, target, to):
                console.print(f"  [bold]{fig[f]} charges {fig[target]}[/] (contact at {_at(to)})")
            case ev.Withdrew(f, to):
                console.print(f"  {fig[f]} withdraws from combat to {_at(to)}")
            case ev.Fought(a, d, fa, fd, sa, sd, ha, hd):
                if ha or hd:
                    winner, hits = (fig[a], ha) if ha else (fig[d], hd)
                    outcome = f"{winner} scores {hits} hit{'' if hits == 1 else 's'}"
                else:
                    outcome = "equal scores: no hits"
                rolls = f"{fig[a]} rolls {fa} (scores {sa}), {fig[d]} rolls {fd} (scores {sd})"
                console.print(f"  fight: {rolls}: {outcome}")
            case ev.ShotFired(shooter, target, face, needs, hit, dist, cover):
                where = ", in cover" if cover else ""
                verdict = "[bold]hit[/]" if hit else "miss"
                console.print(
                    f'  {fig[shooter]} shoots at {fig[target]} ({dist:g}"{where}, needs {needs}+): '
                    f"rolls {face}, {verdict}"
                )
            case ev.SavingThrow(f, face, effect):
                console.print(f"  Dice of Death for {fig[f]}: {face}, {EFFECTS.get(effect, effect)}")
            case ev.FigureHurt(f, shock, wounds):
                console.print(f"  {fig[f]} is now {_hurts(shock, wounds)}")
            case ev.FigureKilled(f):
                console.print(f"  [bold red]{fig[f]} goes to Valhalla[/]")
            case ev.Recovered(f, shock):
                console.print(f"  {fig[f]} recovers from shock ({shock} left)")
            case ev.ThingPickedUp(f, t):
                console.print(f"  {fig[f]} picks up the {thing[t]}")
            case ev.ThingDropped(f, t, at):
                console.print(f"  {fig[f]} drops the {thing[t]} at {_at(at)}")
            case ev.BaggageMoved(b, path):
                console.print(f"  the {thing[b]} moves to {_at(path[-1])}")
            case ev.CoinsWon(s, coins, reason, total):
                console.print(
                    f"  [yellow]{side[s]} win {coins} coin{'' if coins == 1 else 's'}[/]: {reason} "
                    f"({total} in all)"
                )
            case ev.ObjectiveAchieved(s, _objective, title):
                console.print(f"  [bold yellow]{side[s]} achieve an objective[/]: {title}")
            case ev.TurnEnded(turn):
                console.print(f"[dim]end of turn {turn}[/]")
            case ev.GameOver(s, reason):
                who = "a draw" if s is None else f"{side[s]} win"
                console.print(f"[bold]{who}[/]: {reason}")
            case _:
                console.print(f"  {e.kind}")
    return []
