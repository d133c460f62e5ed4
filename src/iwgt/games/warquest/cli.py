"""WarQuest's own commands: ``iwgt odds warquest battle``, the exact chance of winning a battle and one
round's (hits, flees) of each rank, computed by odds.py over the battle kernel the game plays (battle.py).

Commands live in functions so that others (``units``) can be added beside them; ``commands()`` names the
shared groups they join.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from iwgt.core.terminal import console, fail

warquest_odds = typer.Typer(
    help="WarQuest: the exact odds of a battle (a Markov chain over the battle rules, never sampled).",
    no_args_is_help=True,
)

SHOWN = 0.0005
"""The human tables leave out outcomes less likely than this (0.05%); --json has them all."""
BATTLE_EFFECTS = ("rank_dice", "defend_dice", "rally", "pursuit", "battle_dice")
"""The power effects that change a battle (wq-spec: Cards); the others are refused by --*-powers."""


@warquest_odds.callback()
def odds() -> None:
    """WarQuest: the exact odds of a battle (a Markov chain over the battle rules, never sampled)."""
    # A callback keeps this a group (``... warquest battle``) even with one command, mounted or not.


def parse_army(option: str, text: str) -> dict[str, int]:
    """``"orc_foot:4,orc_archer:2"`` as {kind: count}, or exit 2 naming ``option``; "" is no troops."""
    from iwgt.games.warquest.rules import rules

    troops = rules().troops
    army: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        kind, colon, count = part.partition(":")
        kind = kind.strip()
        if not colon or not count.strip().isdigit():
            raise fail(f"{option}: {part!r} is not kind:count (e.g. {option} orc_foot:4,orc_archer:2)")
        if kind not in troops:
            raise fail(f"{option}: unknown troop {kind!r} (the troops: {', '.join(troops)})")
        n = int(count)
        if n < 1:
            raise fail(f"{option}: {part!r}; a count is 1 or more")
        army[kind] = army.get(kind, 0) + n
    return army


def check_pool(attacker: dict[str, int], defender: dict[str, int]) -> None:
    """Both armies together within the Recruitment Pool (WQ-RT-06), or an exit-2 error naming the option."""
    from iwgt.games.warquest.rules import rules

    troops = rules().troops
    for option, army in (("--attacker", attacker), ("--defender", defender)):
        for kind, n in army.items():
            if n > troops[kind].pool:
                raise fail(f"{option}: {n} {kind}; the pool holds {troops[kind].pool} (WQ-RT-06)")
    for kind in sorted(set(attacker) & set(defender)):
        both = attacker[kind] + defender[kind]
        if both > troops[kind].pool:
            raise fail(
                f"--defender: {defender[kind]} {kind} with the attacker's {attacker[kind]}; "
                f"the pool holds {troops[kind].pool} (WQ-RT-06)"
            )


def parse_powers(option: str, text: str | None) -> tuple[str, ...]:
    """Power card keys that change a battle, or an exit-2 error naming ``option``."""
    from iwgt.games.warquest.rules import rules

    if not text:
        return ()
    by_key = {card.key: card for card in rules().powers.values()}
    keys: list[str] = []
    for key in (k.strip() for k in text.split(",")):
        if not key:
            continue
        if key not in by_key:
            raise fail(f"{option}: unknown power card {key!r}")
        if by_key[key].effect not in BATTLE_EFFECTS:
            raise fail(f"{option}: {key!r} ({by_key[key].effect}) changes no battle")
        keys.append(key)
    return tuple(keys)


def check_leaders(option: str, n: int) -> int:
    """1 to the most leaders a player has on the board (the Warlord and MAX_LIEUTENANTS), else exit 2."""
    from iwgt.games.warquest.rules import rules

    most = 1 + rules().constants.MAX_LIEUTENANTS
    if not 1 <= n <= most:
        raise fail(f"{option}: {n}; a side has 1 to {most} leaders (the Warlord and up to 2 Lieutenants)")
    return n


def battle_report(
    attacker: dict[str, int],
    defender: dict[str, int],
    *,
    attacker_leaders: int = 1,
    defender_leaders: int = 1,
    attacker_powers: tuple[str, ...] = (),
    defender_powers: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The odds of a battle between two armies as JSON (string keys): the spec's shape plus the armies."""
    from iwgt.games.warquest.odds import battle_from_armies, battle_odds, rank_previews

    b = battle_from_armies(
        attacker,
        defender,
        attacker_leaders=attacker_leaders,
        defender_leaders=defender_leaders,
        attacker_powers=attacker_powers,
        defender_powers=defender_powers,
    )
    result = battle_odds(b)
    return {
        "attacker": attacker,
        "defender": defender,
        "attacker_wins": result.p_attacker_wins,
        "defender_wins": result.p_defender_wins,
        "error": result.error,
        "rounds_mean": result.rounds_mean,
        "states": result.states,
        "round": rank_previews(b),
    }


@warquest_odds.command(name="battle")
def odds_battle(
    attacker: Annotated[
        str, typer.Option(help='the moving army, kind:count, e.g. "orc_foot:4,orc_archer:2"')
    ],
    defender: Annotated[str, typer.Option(help='the army in the region, e.g. "dwarf_foot:3"')],
    attacker_leaders: Annotated[
        int, typer.Option(help="the attacker's leaders (each rallies, WQ-SP-02)")
    ] = 1,
    defender_leaders: Annotated[
        int, typer.Option(help="the defender's leaders (each rallies, WQ-SP-02)")
    ] = 1,
    attacker_powers: Annotated[
        str | None, typer.Option(help="the attacker's power card keys that change a battle, key,key")
    ] = None,
    defender_powers: Annotated[
        str | None, typer.Option(help="the defender's power card keys that change a battle, key,key")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """The chance that the attacker wins a battle under the table's default choices, and the first round's
    hits and flees of each rank (WQ-CB, WQ-SP)."""
    a = parse_army("--attacker", attacker)
    d = parse_army("--defender", defender)
    check_pool(a, d)
    data = battle_report(
        a,
        d,
        attacker_leaders=check_leaders("--attacker-leaders", attacker_leaders),
        defender_leaders=check_leaders("--defender-leaders", defender_leaders),
        attacker_powers=parse_powers("--attacker-powers", attacker_powers),
        defender_powers=parse_powers("--defender-powers", defender_powers),
    )
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    print_battle(data)


def _army_text(army: dict[str, int]) -> str:
    """ "4 orc_foot, 2 orc_archer" (or "no troops")."""
    return ", ".join(f"{n} {k}" for k, n in army.items()) or "no troops"


def print_battle(data: dict[str, Any]) -> None:
    """The odds as a sentence and a Rich table of the first round's ranks."""
    console.print(
        f"[bold]WarQuest battle[/]: {_army_text(data['attacker'])} attack {_army_text(data['defender'])}"
    )
    exact = "exact" if data["error"] == 0 else f"within {data['error']:.2%} (pruned)"
    console.print(
        f"attacker wins {_pc(data['attacker_wins'])}, defender wins {_pc(data['defender_wins'])} "
        f"({exact}); {data['rounds_mean']:.2f} rounds on average"
    )
    table = Table(title="round 1 (in the order of attack)")
    for head in ("rank", "dice", "hits", "flees"):
        table.add_column(head, justify="left" if head == "rank" else "right")
    for side, rank in (
        ("defender", "rear"),
        ("attacker", "rear"),
        ("defender", "front"),
        ("attacker", "front"),
    ):
        cell = data["round"][side][rank]
        table.add_row(f"{side} {rank}", str(cell["dice"]), _law(cell["hits"]), _law(cell["flees"]))
    console.print(table)


def _law(law: dict[str, float]) -> str:
    """ "0: 33.5%  1: 40.2%  2: 20.1%" without the rare tail."""
    return "  ".join(f"{k}: {_pc(p)}" for k, p in law.items() if p >= SHOWN)


def _pc(p: float) -> str:
    """A chance as a percentage with one decimal ("<0.1%" for a small one that is not 0)."""
    p = max(0.0, p)
    return "<0.1%" if 0 < p < 0.0005 else f"{p:.1%}"


def odds_commands() -> dict[str, typer.Typer]:
    """The odds command: ``iwgt odds warquest battle``."""
    return {"odds": warquest_odds}


def commands() -> dict[str, typer.Typer]:
    """The commands this game adds, by the shared group they join: ``odds`` and ``units`` (catalogue.py)."""
    from iwgt.games.warquest.catalogue import units_app

    return {**odds_commands(), "units": units_app}
