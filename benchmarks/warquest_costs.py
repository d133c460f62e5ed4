"""WarQuest: are the troop costs honest? (issue 15, section 2). Asserts nothing.

Run with ``.venv/bin/python benchmarks/warquest_costs.py [--gold 12] [--runs 100] [--json]``.

For each troop kind that can be bought, an army of GOLD gold of that kind (as many as the gold and the pool
allow; gold left over buys reference troops, so both armies cost the same) fights GOLD gold of the
reference army, a mix of the cheapest basic infantry and archers (Goblin Infantry and Goblin Archers, 2 gold
each, alternately). A kind dearer than GOLD fights at its own cost (rounded up to even). Each side has one
leader and no power. Both orders: the kind attacking, and the kind defending. Two measures:

- **exact**: ``odds.battle_odds`` (the Markov chain over battle.py under the table's defaults; with
  ``--tolerance`` the least likely states dropped, the error bound printed);
- **engine**: RUNS battles through the engine's battle flow (``battle_flow``), seeded dice, every question
  answered with the table's default (the first offered answer: the table's defaults stand in for the bot).

The kind's score is the mean of its chance attacking and its chance defending: the reference against itself
scores 50% by symmetry, so the attacker's disadvantage of the rules cancels. A score outside 35%..65% is
flagged: the kind is too cheap (above) or too dear (below) for what it does in battle. Battle is not all a
troop is for (the Dwarf's SHIELD keeps the dearer troops alive, missile troops shoot from safety, the
wizards and the dragon change other troops' fights): the table is evidence for the data owner, not a verdict.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import replace
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.warquest import battle_events as E
from iwgt.games.warquest import battle_flow as BF
from iwgt.games.warquest import odds
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.scenario import load_scenario
from iwgt.games.warquest.state import Leader, Troop, TurnMarks, WqState

REFERENCE = ("goblin_foot", "goblin_archer")
"""The reference army's kinds, bought alternately (the cheapest basic infantry and archers)."""
LOW, HIGH = 0.35, 0.65
"""A kind whose score falls outside this band is flagged."""
GAME = WqGame()

app = typer.Typer(add_completion=False)


def reference(gold: int, into: dict[str, int] | None = None) -> dict[str, int]:
    """``gold`` worth of the reference kinds, alternately (added to ``into``)."""
    army = dict(into or {})
    troops = rules().troops
    i = 0
    while True:
        kind = REFERENCE[i % len(REFERENCE)]
        cost = troops[kind].cost
        assert cost is not None
        if cost > gold:
            return army
        army[kind] = army.get(kind, 0) + 1
        gold -= cost
        i += 1


def army_of(kind: str, gold: int) -> tuple[dict[str, int], int]:
    """As many of ``kind`` as ``gold`` and the pool allow, the rest of the gold in reference troops; and the
    gold spent on ``kind``."""
    tk = rules().troops[kind]
    assert tk.cost is not None
    n = min(gold // tk.cost, tk.pool)
    return reference(gold - n * tk.cost, {kind: n}), n * tk.cost


def engine_start(att: dict[str, int], dfn: dict[str, int]) -> WqState:
    """A dealt duel on the small map with only these two armies: seat 0's Warlord and ``att`` move from a
    region into the neighbouring one held by seat 1's Warlord and ``dfn`` (battle_flow.begin_battle)."""
    from iwgt.games.warquest.maps import load_map

    sc = load_scenario("duel")
    s = GAME.initial_state(sc)
    while GAME.to_move(s) == CHANCE:
        s, _ = GAME.apply(s, ChanceOutcome(1))
    geometry = load_map(sc.map).geometry
    here = geometry.ids[0]
    there = next(r for r in geometry.neighbours(here) if geometry.kind(here, r) != "mountain")
    troops: list[Troop] = []
    for seat, (army, region) in enumerate(((att, here), (dfn, there))):
        for kind, n in army.items():
            for _ in range(n):
                troops.append(Troop(100 + len(troops), kind, seat, region))
    s = replace(
        s,
        phase="turn",
        seat=0,
        leaders=(Leader(0, 0, "warlord", here), Leader(1, 1, "warlord", there)),
        troops=tuple(troops),
        marks=TurnMarks(actions_left=3),
        next_id=100 + len(troops),
        pending=(),
    )
    ids = tuple(t.id for t in troops if t.seat == 0)
    s, _ = BF.begin_battle(s, 0, ids, here, there)
    return s


def engine_wins(att: dict[str, int], dfn: dict[str, int], runs: int) -> float:
    """The attacker's share of ``runs`` battles through the engine (seeded dice, default answers)."""
    start = engine_start(att, dfn)
    won = 0
    for seed in range(runs):
        dice = SeededDice(seed)
        s = start
        while s.battle is not None and s.battle.winner is None:
            who = GAME.to_move(s)
            if who == CHANCE:
                die = GAME.chance_outcomes(s)
                assert die is not None
                s, events = GAME.apply(s, ChanceOutcome(dice.roll(die)))
            else:
                assert who is not None
                s, events = GAME.apply(s, GAME.legal_actions(s, who)[0])
            ended = [e for e in events if isinstance(e, E.BattleWon)]
            if ended:
                won += ended[0].winner == 0
                break
        else:
            assert s.battle is not None
            won += s.battle.winner == "attacker"
    return won / runs


def measure(kind: str, gold: int, runs: int, tolerance: float, *, exact: bool = True) -> dict[str, Any]:
    """One kind's row: its army, its exact chances attacking and defending, the engine's, its score."""
    cost = rules().troops[kind].cost
    assert cost is not None
    g = max(gold, cost + cost % 2)
    mine, spent = army_of(kind, g)
    ref = reference(g)
    row: dict[str, Any] = {
        "kind": kind,
        "cost": cost,
        "gold": g,
        "army": mine,
        "reference": ref,
        "gold_in_kind": spent,
    }
    if exact:
        t = time.process_time()
        attacking = odds.battle_odds(odds.battle_from_armies(mine, ref), tolerance=tolerance)
        defending = odds.battle_odds(odds.battle_from_armies(ref, mine), tolerance=tolerance)
        row.update(
            attacking=attacking.p_attacker_wins,
            defending=defending.p_defender_wins,
            error=max(attacking.error, defending.error),
            score=(attacking.p_attacker_wins + defending.p_defender_wins) / 2,
            odds_cpu_s=time.process_time() - t,
        )
    if runs:
        row["engine_attacking"] = engine_wins(mine, ref, runs)
        row["engine_defending"] = 1 - engine_wins(ref, mine, runs)
        row["engine_score"] = (row["engine_attacking"] + row["engine_defending"]) / 2
    if not exact:
        # the engine's figures stand in for the exact ones (armies too big for the chain's budget)
        row.update(
            attacking=row["engine_attacking"],
            defending=row["engine_defending"],
            score=row["engine_score"],
            error=None,
        )
    score = row["score"]
    row["flag"] = "too cheap" if score > HIGH else "too dear" if score < LOW else ""
    return row


@app.command()
def main(
    gold: Annotated[int, typer.Option(help="gold per army (even: the reference troops cost 2)")] = 12,
    runs: Annotated[int, typer.Option(help="engine battles per order (0: exact odds only)")] = 100,
    tolerance: Annotated[
        float, typer.Option(help="battle_odds tolerance (0: exact up to the budget)")
    ] = 1e-3,
    kinds: Annotated[str | None, typer.Option(help="only these kinds, key,key")] = None,
    exact: Annotated[
        bool, typer.Option(help="the exact odds (--no-exact: the engine's battles only, for big armies)")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="print the rows as JSON")] = False,
) -> None:
    """Print each buyable kind's chance against the same gold of the reference army, by the exact odds and
    through the engine, and flag the kinds outside 35%..65%."""
    wanted = [k.strip() for k in kinds.split(",")] if kinds else None
    rows = []
    if exact:
        base = odds.battle_odds(
            odds.battle_from_armies(reference(gold), reference(gold)), tolerance=tolerance
        )
        base_attacking = base.p_attacker_wins
    else:
        base_attacking = engine_wins(reference(gold), reference(gold), runs)
    for kind, tk in rules().troops.items():
        if tk.cost is None or (wanted and kind not in wanted):
            continue
        rows.append(measure(kind, gold, runs, tolerance, exact=exact))
    if as_json:
        out = {"gold": gold, "runs": runs, "reference_attacking": base_attacking, "rows": rows}
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
        return
    console = Console(width=170)
    table = Table(
        title=f"WarQuest troop costs: {gold} gold of a kind against {gold} gold of "
        f"{' + '.join(REFERENCE)} (one leader a side)",
        caption=f"score = mean of the chance attacking and defending (the reference scores 50%; it wins "
        f"{base_attacking:.1%} attacking itself{'' if exact else ', engine'}); "
        f"flagged outside {LOW:.0%}..{HIGH:.0%}; engine = "
        f"{runs} seeded battles per order through battle_flow with the table's default answers",
    )
    heads = ["kind", "cost", "army", "attacking", "defending", "score", "error"]
    if runs:
        heads += ["engine score"]
    heads += ["score per 10 gold", "flag"]
    for head in heads:
        table.add_column(head, justify="left" if head in ("kind", "army", "flag") else "right")
    for r in rows:
        army = ", ".join(f"{n} {k}" for k, n in r["army"].items() if n)
        cells = [
            r["kind"],
            str(r["cost"]),
            army,
            f"{r['attacking']:.1%}",
            f"{r['defending']:.1%}",
            f"{r['score']:.1%}",
            "-" if r["error"] is None else f"{r['error']:.0e}",
        ]
        if runs:
            cells.append(f"{r['engine_score']:.1%}")
        cells += [f"{r['score'] / r['gold'] * 10:.2f}", r["flag"]]
        table.add_row(*cells, style="red" if r["flag"] else None)
    console.print(table)
    flagged = [r for r in rows if r["flag"]]
    median = statistics.median(r["score"] for r in rows)
    console.print(f"{len(flagged)} of {len(rows)} kinds flagged; median score {median:.1%}")


if __name__ == "__main__":
    app()
