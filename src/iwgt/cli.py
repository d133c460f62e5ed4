"""The ``iwgt`` command: the table server, unit tables, headless simulated battles, and record replays."""

from __future__ import annotations

import errno
import json
import socket
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from typer.core import TyperGroup

from iwgt.core.chance import Die, SeededDice
from iwgt.core.errors import GameError, MalformedAction
from iwgt.core.match import Match
from iwgt.core.plugin import GamePlugin, checked_choices
from iwgt.core.protocol import Event, Result, same_result
from iwgt.core.record import GameRecord, replay
from iwgt.core.registry import UnknownGame, get_plugin, plugins
from iwgt.core.terminal import console, fail
from iwgt.hardware.commands import hardware_app
from iwgt.hardware.commands import sim as hardware_sim

app = typer.Typer(
    help="The Intelligent Wargames Table: a computer referee for tabletop wargames.", no_args_is_help=True
)

GROUPS: dict[str, str] = {
    "units": "A game's table of troops, units or figures.",
    "spells": "A game's spells.",
    "odds": "Exact odds of a game's dice, computed from its own rule code.",
}
"""The command groups games add their own commands to (``iwgt odds <game> ...``), with their help."""


def _plugin(name: str) -> GamePlugin:
    try:
        return get_plugin(name)
    except UnknownGame as exc:
        raise fail(str(exc)) from None


class _GameGroup(TyperGroup):
    """A shared group (``iwgt odds``): a game without that command is named with the games that have it."""

    # Typer bundles its own click, whose types it does not export: the signature is the parent's, untyped.
    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """The game's command, or a one-line error (exit 2) saying which games have this group."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            having = ", ".join(sorted(self.list_commands(ctx))) or "none"
            group = ctx.info_name or "this command"
            if name in {p.name for p in plugins()}:
                raise fail(f"{name} has no {group}; games with {group}: {having}")
            raise fail(f"there is no game {name!r}; games with {group}: {having}")
        return super().resolve_command(ctx, args)


def _add_game_commands() -> None:
    """Each game's own commands, under the shared group each joins; a group no game uses is not shown."""
    groups: dict[str, typer.Typer] = {}
    for plugin in plugins():
        for group, sub in plugin.commands().items():
            if group not in groups:
                helped = GROUPS.get(group, f"Each game's {group}.")
                games_with = [p.name for p in plugins() if group in p.commands()]
                groups[group] = typer.Typer(
                    cls=_GameGroup,
                    help=f"{helped} Games that have them: {', '.join(games_with)}.",
                    no_args_is_help=True,
                )
                app.add_typer(groups[group], name=group)
            groups[group].add_typer(sub, name=plugin.name)


@app.command()
def games() -> None:
    """List the games on the table."""
    for plugin in plugins():
        f = plugin.facts
        console.print(f"[bold]{f.name}[/]  {f.title}  (rules {f.rules_version})")


@app.command()
def scenarios(game: Annotated[str, typer.Argument(help="game name (see `iwgt games`)")]) -> None:
    """List a game's shipped scenarios."""
    g = _plugin(game).game
    table = Table(title=f"{g.title}: scenarios")
    for col in ("name", "title", "table", "sides", "players", "turns"):
        table.add_column(col)
    for name in g.scenario_names():
        card = g.scenario_card(g.load_scenario(name))
        turns = "" if card.turns is None else str(card.turns)
        table.add_row(name, card.title, card.table, card.forces, str(len(card.seats)), turns)
    console.print(table)


def parse_face(text: str, die: Die) -> int | None:
    """A face typed by a player, or None: "00" on a d100 is 100 (two d10, tens and units)."""
    text = text.strip()
    if die.sides == 100 and text in ("00", "0"):
        return 100
    if not text.isdigit():
        return None
    face = int(text)
    return face if 1 <= face <= die.sides else None


def die_prompt(die: Die) -> str:
    """What the physical-dice prompt asks: the purpose, the hint and, for a die with labelled faces, the
    number to type for each label ("1=1 2=1 3=2 4=miss ...")."""
    labels = " ".join(f"{n}={die.label(n)}" for n in range(1, die.sides + 1)) if die.faces else ""
    return f"{die.purpose}: {die.hint()}" + (f"; type the face's number: {labels}" if labels else "")


def _ask_die(die: Die) -> int:
    while True:
        text: str = typer.prompt(die_prompt(die), err=True)
        face = parse_face(text, die)
        if face is not None:
            return face
        typer.echo(f"  {text!r} is not a face of a d{die.sides}; try again", err=True)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game name (see `iwgt games`)")],
    scenario: Annotated[
        str | None,
        typer.Option(help="a shipped scenario name or a path to a .toml file (default: the game's first)"),
    ] = None,
    seed: Annotated[
        int, typer.Option(help="seed of the dice and of the bots' choices: the same seed, the same battle")
    ] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object with the result")] = False,
    record: Annotated[Path | None, typer.Option(help="save the game record (JSON) to this file")] = None,
    physical_dice: Annotated[
        bool, typer.Option(help="ask for the face of every roll instead of rolling")
    ] = False,
    players: Annotated[
        int | None,
        typer.Option(help="seat this many players (a game whose setup options include `players`)"),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="a setup option of the game as KEY=VALUE (repeatable; see the game selection)"),
    ] = None,
) -> None:
    """Play a scenario to the end with the game's built-in bot in every seat, with a turn-by-turn report."""
    plugin = _plugin(game)
    g = plugin.game
    if plugin.bot() is None:
        raise fail(f"{g.title} has no built-in bot to play it headless")
    bots: dict[int, Any] = {}  # one bot per seat (a scenario may seat several players a side)
    print_events = plugin.report() or _print_plain
    try:
        scen = _simulated_scenario(plugin, scenario, players, option or [])
    except GameError as exc:
        raise fail(exc.message) from None
    # With physical dice the players roll every die the referee awaits; the table still rolls the secret dice
    # (a hidden carrier, a shuffled deck) itself, from the seed.
    match = Match(g, scen, SeededDice(seed), None if physical_dice else seed, by_hand=physical_dice)
    if not as_json:
        dice_name = "physical dice" if physical_dice else f"seed {seed}"
        console.rule(f"[bold]{g.title}[/]: {g.scenario_card(scen).title} ({dice_name})")
    events: list[Event] = match.resolve_chance()
    while not match.is_over():
        die = match.awaited_die()
        if die is not None:
            events.extend(match.enter_face(_ask_die(die)))
            continue
        seat = match.to_move
        assert seat is not None, "a game that is not over has a seat to act"
        if seat not in bots:
            bots[seat] = plugin.bot(seed)
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
    assert res is not None, "a finished game has a result"
    summary: dict[str, Any] = {
        "game": g.name,
        "scenario": scen.name,
        "seed": None if physical_dice else seed,
        "winner": res.side,
        "reason": res.reason,
        "turns": g.status(match.state).turn,
        "steps": len(rec.steps),
        **plugin.summary(match.state),
    }
    if as_json:
        sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    else:
        console.rule(f"[bold]Game over after {summary['turns']} turns: {res.words}")


def _simulated_scenario(
    plugin: GamePlugin, scenario: str | None, players: int | None, options: list[str]
) -> Any:
    """The scenario to play, with the setup choices written into it. Without ``--scenario`` it is the game's
    first scenario made for ``--players``, else its first that takes the choices (so ``--players 3`` skips a
    first scenario made for two)."""
    g = plugin.game
    names = [scenario] if scenario is not None else g.scenario_names()
    if scenario is None and players is not None:  # a scenario made for so many players comes first
        names.sort(key=lambda name: len(g.seats(g.load_scenario(name))) != players)
    first_error: GameError | None = None
    for name in names:
        scen = g.load_scenario(name)
        try:
            choices = setup_choices(plugin, len(g.seats(scen)), players, options)
            return plugin.configure(scen, choices) if choices else scen
        except GameError as exc:
            first_error = first_error or exc
    assert first_error is not None, "a game has at least one scenario"
    raise first_error


def setup_choices(plugin: GamePlugin, seats: int, players: int | None, options: list[str]) -> dict[str, str]:
    """The setup choices ``--players`` and ``--option KEY=VALUE`` ask for, checked against the game's own
    setup options (``GamePlugin.setup_options``); a game without a ``players`` option refuses ``--players``
    naming the seats its scenario has."""
    raw: dict[str, str] = {}
    for given in options:
        key, sep, value = given.partition("=")
        if not sep or not key.strip():
            raise MalformedAction(f"--option {given!r}: write a setup option as KEY=VALUE")
        if key.strip() in raw:
            raise MalformedAction(f"--option {key.strip()!r} is given twice")
        raw[key.strip()] = value.strip()
    offered = plugin.setup_options()
    if players is not None:
        if all(o.key != "players" for o in offered):
            raise MalformedAction(
                f"--players: {plugin.facts.title} seats a fixed {seats} players (its scenario's seats)"
            )
        if raw.get("players", str(players)) != str(players):
            raise MalformedAction(f"--players {players} and --option players={raw['players']} disagree")
        raw["players"] = str(players)
    return checked_choices(offered, raw)


def _print_plain(console_: Any, state: Any, events: list[Event]) -> list[Event]:
    """The report of a game without its own: each event the spectator may see, one line each."""
    for e in events:
        if e.visible_to(None):
            console_.print(json.dumps(e.to_json(), ensure_ascii=False))
    return []


@app.command(name="replay")
def replay_cmd(file: Annotated[Path, typer.Argument(help="a game record saved with --record")]) -> None:
    """Replay a record and check that every step reproduces."""
    try:
        rec = GameRecord.load(file)
        out = replay(rec)
    except GameError as exc:
        raise fail(exc.message) from None
    g = get_plugin(rec.game).game
    res = g.result(out.state)
    if not same_result(rec.result, res):

        def words(r: Result | None) -> str:
            return "an unfinished game" if r is None else r.words

        said = "an unfinished game" if rec.result is None else str(rec.result.get("reason"))
        raise fail(f"the replay ends with {words(res)}, but the record says {said}")
    outcome = "the game is not finished" if res is None else res.words
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
    table_bridge: Annotated[
        bool, typer.Option(help="serve physical tables over MQTT, on a broker of its own (user and password)")
    ] = False,
    mqtt_listen: Annotated[
        str, typer.Option(help="HOST:PORT the embedded MQTT broker listens on (with --table-bridge)")
    ] = "127.0.0.1:1883",
    mqtt: Annotated[
        str | None,
        typer.Option(help="serve physical tables through another broker: mqtt[s]://user:pass@host:port"),
    ] = None,
) -> None:
    """Start the table: the touchscreen and virtual table in your browser, with every game saved as played."""
    import uvicorn
    from platformdirs import user_data_path

    from iwgt.server.app import MAX_FRAME_BYTES, Settings, create_app, tune_gc
    from iwgt.server.timeouts import uvicorn_options

    problem = _cannot_listen(host, port)
    if problem is not None:
        raise fail(problem)
    folder = data if data is not None else user_data_path("iwgt", appauthor=False)
    settings = Settings(
        data_dir=folder,
        open_lobby=open_lobby,
        allowed_origins=tuple(allow_origin or ()),
        bot_delay=bot_delay,
        table_bridge=table_bridge,
        mqtt_listen=mqtt_listen,
        mqtt_url=mqtt,
    )
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    console.print(f"[bold]The Intelligent Wargames Table[/] is open at [link]http://{shown}:{port}/[/link]")
    console.print(f"games are saved in {settings.journal_path}; stop with Ctrl+C")
    if table_bridge and mqtt is None:
        console.print(f"physical tables: MQTT broker on {mqtt_listen} (iwgt hardware credentials: the login)")
    elif mqtt is not None:
        console.print("physical tables: through the MQTT broker given with --mqtt")
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
        **uvicorn_options(),  # header and body deadlines: half-sent requests are closed, not held open
    )


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the table cannot listen on host:port, in one line, or None when it can (tried by binding it)."""
    if not 1 <= port <= 65535:
        return f"--port {port}: a port is a number from 1 to 65535"
    where = f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError):
        return f"cannot listen on {where}: --host {host!r} is not an address of this machine"
    try:
        with socket.socket(family, kind, proto) as probe:
            # The server sets SO_REUSEADDR too: a port left in TIME_WAIT by a table just stopped is free.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return f"cannot listen on {where}: the port is in use (another table?); try another --port"
        if exc.errno in (errno.EACCES, errno.EPERM):
            return f"cannot listen on {where}: permission denied (ports below 1024 need privileges)"
        if exc.errno == errno.EADDRNOTAVAIL:
            return f"cannot listen on {where}: --host {host!r} is not an address of this machine"
        return f"cannot listen on {where}: {(exc.strerror or str(exc)).lower()}"
    return None


_add_game_commands()
app.add_typer(hardware_app, name="hardware")
app.command(name="table-sim")(hardware_sim)  # the simulated table's short name: iwgt hardware sim


def main() -> None:
    """Entry point."""
    app()
