"""The ``iwgt`` command: the table server, unit tables, headless simulated battles, and record replays."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

import iwgt.games  # noqa: F401  (registers every game)
from iwgt.core.chance import DiceSource, Die, PhysicalDice, SeededDice
from iwgt.core.errors import GameError
from iwgt.core.match import Match
from iwgt.core.protocol import Event
from iwgt.core.record import GameRecord, replay
from iwgt.core.registry import game_names, get_game

app = typer.Typer(
    help="The Intelligent Wargames Table: a computer referee for tabletop wargames.", no_args_is_help=True
)
console = Console(width=120, highlight=False)
"""A fixed width keeps the report byte-identical from one terminal to another."""
SIDE_NAMES = ("light", "darkness")


def _game(name: str) -> Any:
    try:
        return get_game(name)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0])) from None


def _fail(message: str) -> typer.Exit:
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {message}", soft_wrap=True)
    return typer.Exit(2)


@app.command()
def games() -> None:
    """List the games on the table."""
    for name in game_names():
        g = get_game(name)
        console.print(f"[bold]{name}[/]  {g.title}  (rules {g.rules_version})")


@app.command()
def scenarios(game: Annotated[str, typer.Argument(help="game name, e.g. valkyrx")] = "valkyrx") -> None:
    """List a game's shipped scenarios."""
    g = _game(game)
    table = Table(title=f"{g.title}: scenarios")
    if g.name == "valhalla":
        for col in ("name", "title", "table", "players", "turns"):
            table.add_column(col)
        for name in g.scenario_names():
            spec = g.load_scenario(name).spec
            players = " v ".join(
                f"{sum(1 for p in spec.players if p.side == i)} {side.name}"
                for i, side in enumerate(spec.sides)
            )
            size = f'{spec.width:g}" x {spec.height:g}"'
            table.add_row(name, spec.title, size, players, str(spec.turn_limit))
        console.print(table)
        return
    for col in ("name", "title", "board", "units", "turns"):
        table.add_column(col)
    for name in g.scenario_names():
        s = g.load_scenario(name)
        spec = s.spec
        units = " / ".join(str(len(spec.army[side])) for side in SIDE_NAMES)
        table.add_row(name, spec.title, f"{spec.width}x{spec.height}", units, str(s.turn_limit))
    console.print(table)


UNIT_KEYS = (
    "name", "side", "bodies", "move", "charge", "attack", "special", "defence", "range",
    "rate_of_fire", "accuracy", "resist_magic", "melee", "morale", "points",
)  # fmt: skip


@app.command()
def units(
    game: Annotated[str, typer.Argument(help="game name")] = "valkyrx",
    as_json: Annotated[bool, typer.Option("--json", help="a JSON array, one object per unit type")] = False,
) -> None:
    """The character attributes table of a game."""
    if game != "valkyrx":
        raise _fail(f"no unit table for {game!r} yet")
    from iwgt.games.valkyrx.units import unit_types

    types = list(unit_types().values())
    rows = [{k: getattr(u, k) for k in UNIT_KEYS} for u in types]
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
        return
    table = Table(
        title="Days of the Valkyrx: character attributes",
        caption="id: the name scenario files use. atk, spec, def: attack, special abilities, defence; "
        "rng: weapon range in cells; rof: strike rate; acc%: accuracy; RM: resist magic; mel: melee; "
        "mor: starting morale; pts: points value.",
    )
    heads = (
        "id",
        "name",
        "side",
        "bodies",
        "move",
        "atk",
        "spec",
        "def",
        "rng",
        "rof",
        "acc%",
        "RM",
        "mel",
        "mor",
        "pts",
    )
    for h in heads:
        table.add_column(h, justify="left" if h in ("id", "name", "side") else "right")
    for t, r in zip(types, rows, strict=True):
        move = str(r["move"]) if r["charge"] is None else f"{r['move']}/{r['charge']}"
        table.add_row(
            t.id, str(r["name"]), str(r["side"]), str(r["bodies"]), move, str(r["attack"]), str(r["special"]),
            str(r["defence"]), str(r["range"]), str(r["rate_of_fire"]), str(r["accuracy"]),
            str(r["resist_magic"]), str(r["melee"]), str(r["morale"]), str(r["points"]),
        )  # fmt: skip
    Console(highlight=False, width=170).print(table)  # wide enough that no name wraps


SPELL_KEYS = ("id", "name", "duration", "range", "master_only", "timing", "affects", "resisted", "effect")
SPELLS_HELP = (
    "The magic spells table of a game (name, duration, range, master only, effect); with --packs, the "
    "wizards' default packs instead.\n\n"
    "--json prints a JSON array, one object per spell in table order, with the keys id, name, duration "
    '(turns), range (cells, or "local" / "all"), master_only (the red spells), timing ("immediate": in force '
    'from the casting turn; "following": from the next turn), affects, resisted (by Resist Magic) and effect '
    "(one line). The packs are not in that array: --packs --json prints them as an object, wizard id to "
    "spell ids."
)


@app.command(name="spells", help=SPELLS_HELP)
def spells_cmd(
    game: Annotated[str, typer.Argument(help="game name")] = "valkyrx",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of a table")] = False,
    packs: Annotated[
        bool, typer.Option("--packs", help="the wizards' default packs, not the spells")
    ] = False,
) -> None:
    """The magic spells table, or the wizards' default packs (see SPELLS_HELP)."""
    if game != "valkyrx":
        raise _fail(f"no spells table for {game!r} yet")
    from iwgt.games.valkyrx.spellbook import spell_table
    from iwgt.games.valkyrx.units import unit_types

    data = spell_table()
    if packs:
        if as_json:
            out = {wizard: list(pack) for wizard, pack in data.packs.items()}
            sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
            return
        names = {s.id: s.name for s in data.spell}
        packs_table = Table(
            title="Days of the Valkyrx: the wizards' default packs",
            caption="A wizard left unarmed at deployment takes his default pack (VX-15-05).",
        )
        for h in ("id", "wizard", "spells"):
            packs_table.add_column(h)
        for wizard, pack in data.packs.items():
            packs_table.add_row(wizard, unit_types()[wizard].name, ", ".join(names[s] for s in pack))
        console.print(packs_table)
        return
    # master_only is the table's red mark (VX-11-09); every other key is the spell's own field.
    rows = [{k: s.red if k == "master_only" else getattr(s, k) for k in SPELL_KEYS} for s in data.spell]
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
        return
    table = Table(
        title="Days of the Valkyrx: magic spells",
        caption="duration: turns from the casting turn (+1: from the next turn); range: cells, local (the "
        "wizard himself) or all (the whole field); master only: the red spells. Default packs: --packs.",
    )
    for h in ("id", "name", "duration", "range", "master only", "effect"):
        table.add_column(h, justify="right" if h in ("duration", "range") else "left")
    for r in rows:
        table.add_row(
            str(r["id"]),
            str(r["name"]),
            f"{r['duration']}" + (" (+1)" if r["timing"] == "following" else ""),
            str(r["range"]),
            "yes" if r["master_only"] else "",
            str(r["effect"]),
        )
    Console(highlight=False, width=190).print(table)  # wide enough that no effect wraps


def parse_face(text: str, die: Die) -> int | None:
    """A face typed by a player, or None: "00" on a d100 is 100 (two d10, tens and units)."""
    text = text.strip()
    if die.sides == 100 and text in ("00", "0"):
        return 100
    if not text.isdigit():
        return None
    face = int(text)
    return face if 1 <= face <= die.sides else None


def _ask_die(die: Die) -> int:
    while True:
        text: str = typer.prompt(f"{die.purpose}: {die.hint()}", err=True)
        face = parse_face(text, die)
        if face is not None:
            return face
        typer.echo(f"  {text!r} is not a face of a d{die.sides}; try again", err=True)


def describe_result(winner: int | None, reason: str) -> str:
    """A result in words, e.g. "the Light wins (the Darkness has nothing left on the table)"."""
    who = "a draw" if winner is None else f"the {('Light', 'Darkness')[winner]} wins"
    return f"{who} ({reason})"


def _report(game: Any) -> Any:
    """The turn-by-turn report printer of a game: ``print_events(console, state, events)``."""
    if game.name == "valhalla":
        from iwgt.cli_report_valhalla import print_events as valhalla_events

        return valhalla_events
    from iwgt.games.valkyrx.report import print_events as valkyrx_events

    return valkyrx_events


def _winner_name(game: Any, state: Any, winner: int | None) -> str | None:
    """The winning side's name for the JSON summary: "light"/"darkness", or a Valhalla side's own name."""
    if winner is None:
        return None
    if game.name == "valhalla":
        spec = state.scenario.spec
        return str(spec.sides[spec.players[winner].side].name)
    return SIDE_NAMES[winner]


def _result_words(game: Any, winner: int | None, reason: str) -> str:
    """The result for the closing line; a Valhalla reason already names the winning side."""
    return reason if game.name == "valhalla" else describe_result(winner, reason)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game name")] = "valkyrx",
    scenario: Annotated[
        str, typer.Option(help="a shipped scenario name or a path to a .toml file")
    ] = "skirmish",
    seed: Annotated[int, typer.Option(help="seed of the dice; the same seed gives the same battle")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object with the result")] = False,
    record: Annotated[Path | None, typer.Option(help="save the game record (JSON) to this file")] = None,
    physical_dice: Annotated[
        bool, typer.Option(help="ask for the face of every roll instead of rolling")
    ] = False,
) -> None:
    """Play a scenario to the end between two heuristic bots, with a turn-by-turn report."""
    from iwgt.ai.bots import bot_for

    g = _game(game)
    try:
        bot_for(g)
    except TypeError as exc:
        raise _fail(str(exc)) from None
    bots: dict[int, Any] = {}  # one bot per seat (Valhalla has several players a side in some scenarios)
    print_events = _report(g)
    try:
        scen = g.load_scenario(scenario)
    except GameError as exc:
        raise _fail(exc.message) from None
    # With physical dice the table still rolls the secret dice (the plague's carrier, Valhalla's deal) itself,
    # from the seed.
    dice: DiceSource = PhysicalDice(_ask_die, table=SeededDice(seed)) if physical_dice else SeededDice(seed)
    match = Match(g, scen, dice, None if physical_dice else seed)
    if not as_json:
        dice_name = "physical dice" if physical_dice else f"seed {seed}"
        console.rule(f"[bold]{g.title}[/]: {scen.spec.title} ({dice_name})")
    events: list[Event] = match.resolve_chance()
    while not g.is_terminal(match.state):
        seat = g.to_move(match.state)
        if seat not in bots:
            bots[seat] = bot_for(g)
        # The report is printed before the next dice are asked for (they matter with real dice).
        events.extend(match.act(seat, bots[seat].choose(match.state, seat), then_chance=False))
        if not as_json:
            events = print_events(console, match.state, events)
        events.extend(match.resolve_chance())
    if not as_json:
        print_events(console, match.state, events)
    rec = match.finish_record()
    if record is not None:
        rec.save(record)
        if not as_json:
            console.print(f"record saved to {record}; check it with: iwgt replay {record}")
    res = g.result(match.state)
    summary: dict[str, Any] = {
        "game": g.name,
        "scenario": scen.name,
        "seed": None if physical_dice else seed,
        "winner": _winner_name(g, match.state, res.winner),
        "reason": res.reason,
        "turns": match.state.turn,
        "steps": len(rec.steps),
    }
    if g.name == "valhalla":
        summary["coins"] = list(match.state.coins)
    if as_json:
        sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    else:
        console.rule(
            f"[bold]Game over after {summary['turns']} turns: {_result_words(g, res.winner, res.reason)}"
        )


@app.command(name="replay")
def replay_cmd(file: Annotated[Path, typer.Argument(help="a game record saved with --record")]) -> None:
    """Replay a record and check that every step reproduces."""
    try:
        rec = GameRecord.load(file)
        out = replay(rec)
    except GameError as exc:
        raise _fail(exc.message) from None
    g = get_game(rec.game)
    res = g.result(out.state)
    got = None if res is None else {"winner": res.winner, "reason": res.reason}
    if rec.result != got:

        def words(r: dict[str, Any] | None) -> str:
            return "an unfinished game" if r is None else _result_words(g, r["winner"], r["reason"])

        raise _fail(f"the replay ends with {words(got)}, but the record says {words(rec.result)}")
    outcome = "the game is not finished" if res is None else _result_words(g, res.winner, res.reason)
    console.print(f"[green]ok[/]: {out.steps} steps of {rec.game} ({rec.scenario_name}) reproduce; {outcome}")


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="address to listen on; 0.0.0.0 lets other machines join")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    data: Annotated[
        Path | None, typer.Option(help="folder of the journal (default: your user data folder)")
    ] = None,
    open_lobby: Annotated[
        bool, typer.Option(help="let other machines create, list and delete games (not only join by link)")
    ] = False,
    allow_origin: Annotated[
        list[str] | None, typer.Option(help="another site allowed to open the table's sockets")
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds the bot pauses before each action")] = 0.6,
) -> None:
    """Start the table: the touchscreen and virtual table in your browser, with every game saved as played."""
    import uvicorn
    from platformdirs import user_data_path

    from iwgt.server.app import MAX_FRAME_BYTES, Settings, create_app, tune_gc

    folder = data if data is not None else user_data_path("iwgt", appauthor=False)
    settings = Settings(
        data_dir=folder, open_lobby=open_lobby, allowed_origins=tuple(allow_origin or ()), bot_delay=bot_delay
    )
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    console.print(f"[bold]The Intelligent Wargames Table[/] is open at [link]http://{shown}:{port}/[/link]")
    console.print(f"games are saved in {settings.journal_path}; stop with Ctrl+C")
    asgi = create_app(settings)
    tune_gc()
    # No per-message compression: a view is rebuilt for every step, and deflating it cost more CPU than the
    # bytes it saves on a table's own network.
    uvicorn.run(
        asgi,
        host=host,
        port=port,
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False,
        log_level="warning",
    )


odds_app = typer.Typer(
    help="Exact odds of a game's dice, computed from its own rule code.", no_args_is_help=True
)
valhalla_odds = typer.Typer(help="Valhalla: the odds of a combat or a shot.", no_args_is_help=True)
odds_app.add_typer(valhalla_odds, name="valhalla")
app.add_typer(odds_app, name="odds")
KIND_HELP = "hero, warrior, archer or slinger"


def _kind(text: str, what: str) -> Any:
    """A Valhalla figure kind typed on the command line, or an exit-2 error naming the choices."""
    from iwgt.games.valhalla.config import KINDS

    kind = text.strip().lower()
    if kind not in KINDS:
        raise _fail(f"{what}: unknown kind {text!r}; choose {KIND_HELP}")
    return kind


def _check_shock(shock: int, wounded: bool, what: str) -> None:
    """An exit-2 error naming the option when a shock count is one the rules never reach."""
    from iwgt.games.valhalla.odds import start_harm

    try:
        start_harm(shock, wounded)
    except ValueError as exc:
        raise _fail(f"{what}: {exc}") from None


def _chance(p: Any) -> str:
    """A chance as a percentage and its exact fraction, e.g. "45.00%  9/20"."""
    return f"{float(p):7.2%}  {p}"


@valhalla_odds.command(name="combat")
def odds_combat(
    attacker: Annotated[str, typer.Option(help=f"the attacker: {KIND_HELP}")] = "hero",
    defender: Annotated[str, typer.Option(help=f"the defender: {KIND_HELP}")] = "warrior",
    charging: Annotated[bool, typer.Option("--charging", help="the attacker charged: +1 (VH-CO-06)")] = False,
    uphill_attacker: Annotated[
        bool, typer.Option("--uphill-attacker", help="the attacker has the higher ground: +1 (VH-CO-07)")
    ] = False,
    uphill_defender: Annotated[
        bool,
        typer.Option("--uphill-defender", help="the defender is uphill or defends a village or woods: +1"),
    ] = False,
    attacker_shock: Annotated[int, typer.Option(help="the attacker's shock markers: -1 each")] = 0,
    defender_shock: Annotated[int, typer.Option(help="the defender's shock markers: -1 each")] = 0,
    attacker_wounded: Annotated[
        bool, typer.Option("--attacker-wounded", help="the attacker is wounded: -2")
    ] = False,
    defender_wounded: Annotated[
        bool, typer.Option("--defender-wounded", help="the defender is wounded: -2")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON object (exact fractions too)")
    ] = False,
) -> None:
    """The exact odds of one round of Valhalla combat and the saving throws that follow."""
    from iwgt.games.valhalla.dice import Fighter
    from iwgt.games.valhalla.odds import combat_odds

    a = Fighter(_kind(attacker, "--attacker"), attacker_shock, attacker_wounded, charging, uphill_attacker)
    d = Fighter(_kind(defender, "--defender"), defender_shock, defender_wounded, False, uphill_defender)
    _check_shock(attacker_shock, attacker_wounded, "--attacker-shock")
    _check_shock(defender_shock, defender_wounded, "--defender-shock")
    try:
        odds = combat_odds(a, d)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(odds.to_json(), ensure_ascii=False) + "\n")
        return

    def who(f: Fighter) -> str:
        mod = f"{f.modifier:+d}" if f.modifier else ""
        return f"{f.kind} (d{f.die}{mod})"

    console.print(f"[bold]Valhalla combat[/]: {who(a)} attacks {who(d)}")
    table = Table()
    table.add_column("outcome")
    table.add_column("attacker", justify="right")
    table.add_column("defender", justify="right")
    for n in range(3):
        label = f"scores {n} hit{'' if n == 1 else 's'}"
        table.add_row(label, _chance(odds.attacker_hits[n]), _chance(odds.defender_hits[n]))
    a_fates, d_fates = odds.attacker_fate.fates(), odds.defender_fate.fates()
    for name in a_fates:
        table.add_row(name, _chance(a_fates[name]), _chance(d_fates[name]))
    console.print(table)
    console.print(
        "hits: scored on the opponent (VH-CO-10..12), then one Dice of Death per hit taken (VH-ST-01..12); "
        "wounded: a new wound, alive; shocked: shock only, alive."
    )


@valhalla_odds.command(name="shoot")
def odds_shoot(
    range_: Annotated[
        float, typer.Option("--range", help="inches from the shooter to the target, edge to edge")
    ],
    cover: Annotated[bool, typer.Option("--cover", help="the target is in woods or a village: -1")] = False,
    target: Annotated[str, typer.Option(help=f"the target: {KIND_HELP}")] = "warrior",
    target_shock: Annotated[int, typer.Option(help="the target's shock markers")] = 0,
    target_wounded: Annotated[bool, typer.Option("--target-wounded", help="the target is wounded")] = False,
    shots: Annotated[int, typer.Option(help="shooting dice: 2 when shooting twice (VH-AC-17)")] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON object (exact fractions too)")
    ] = False,
) -> None:
    """The exact odds of a Valhalla shot (or two) and the target's saving throws."""
    from iwgt.games.valhalla.odds import SHOT_DIE, shoot_odds

    kind = _kind(target, "--target")
    if shots not in (1, 2):
        raise _fail(f"--shots: a figure shoots once or twice (VH-AC-17), not {shots}")
    try:
        odds = shoot_odds(range_, cover, kind, target_shock, target_wounded, shots)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(odds.to_json(), ensure_ascii=False) + "\n")
        return
    if odds.needs is None:
        needs = f"cannot hit: {odds.reason}"
    else:
        needs = f"hits on {odds.needs}" + (f"-{SHOT_DIE}" if odds.needs < SHOT_DIE else "")
    where = " in cover" if cover else ""
    band = odds.range_band if odds.range_band == "out of range" else f"{odds.range_band} range"
    console.print(f'[bold]Valhalla shot[/]: {kind} at {range_:g}"{where}, {band}, {needs}')
    table = Table()
    table.add_column("outcome")
    table.add_column("chance", justify="right")
    table.add_row("a die hits", _chance(odds.hit))
    if shots > 1:
        for n, p in sorted(odds.hits.items()):
            table.add_row(f"{n} hit{'' if n == 1 else 's'}", _chance(p))
    for name, p in odds.fate.fates().items():
        table.add_row(name, _chance(p))
    console.print(table)
    console.print(
        "VH-SH-03..09: one Dice of Death per hit; wounded: a new wound, alive; shocked: shock only, alive."
    )


def main() -> None:
    """Entry point."""
    app()
