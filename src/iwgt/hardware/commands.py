"""The ``iwgt hardware`` commands: layouts, credentials, the LED driver and the simulated table.

Each command is a thin wrapper: it parses options and calls into its own module (layout.py, leds.py, sim.py,
simweb.py, broker.py), importing it lazily so that ``iwgt --help`` stays quick.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

hardware_app = typer.Typer(
    help="The physical table: layouts, MQTT credentials, LED controllers and a simulated table.",
    no_args_is_help=True,
)
"""The ``iwgt hardware`` group (the engineers of each part add their command here)."""


@hardware_app.command("layout")
def layout(
    columns: Annotated[int, typer.Option(help="cells across the table")],
    rows: Annotated[int, typer.Option(help="rows of cells, from the far edge")],
    controller: Annotated[
        list[str],
        typer.Option(
            help="an LED controller protocol:host:port[:leds] (ddp:127.0.0.1:4048:900, dnrgb:10.0.0.5),"
            " in LED order; repeat for several; the last one may leave out its LEDs (it takes the rest)"
        ),
    ],
    leds_per_cell: Annotated[int, typer.Option(help="LEDs under each cell")] = 1,
    cell_inches: Annotated[float, typer.Option(help="a cell's width across flats, in inches")] = 2.0,
    sensor: Annotated[str, typer.Option(help="presence or identity")] = "presence",
    wiring: Annotated[
        str, typer.Option(help="rows (every row left to right) or serpentine (odd rows right to left)")
    ] = "rows",
    name: Annotated[str | None, typer.Option(help="the layout's name")] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="write it here, not to stdout")
    ] = None,
) -> None:
    """Print a table layout TOML (cells, LEDs per cell, controllers) for the LED driver and the sim."""
    from iwgt.hardware.layout import LayoutError, make_layout

    if sensor not in ("presence", "identity"):
        raise typer.BadParameter("presence or identity", param_hint="--sensor")
    if wiring not in ("rows", "serpentine"):
        raise typer.BadParameter("rows or serpentine", param_hint="--wiring")
    try:
        text = make_layout(
            columns,
            rows,
            leds_per_cell,
            controller,
            name=name,
            cell_inches=cell_inches,
            sensor="identity" if sensor == "identity" else "presence",
            wiring="serpentine" if wiring == "serpentine" else "rows",
        )
    except (LayoutError, ValueError) as err:
        typer.echo(f"iwgt hardware layout: {err}", err=True)
        raise typer.Exit(2) from None
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}")


@hardware_app.command("leds")
def leds(
    device: Annotated[str, typer.Option(help="the table's device id (topics iwgt/v1/tables/<device>/...)")],
    layout: Annotated[Path, typer.Option(help="the table's layout TOML: cells, LEDs, controllers")],
    mqtt: Annotated[
        str | None,
        typer.Option(help="broker URL mqtt://user:pass@host:port (default: the local one, as the device)"),
    ] = None,
    fps: Annotated[float, typer.Option(help="LED frames a second")] = 30.0,
    data: Annotated[Path | None, typer.Option(help="folder of mqtt-users.toml (default: user data)")] = None,
) -> None:
    """Drive the table's LED controllers (DDP, WLED DNRGB) from the referee's frames over MQTT."""
    from iwgt.hardware.leds import main

    raise typer.Exit(main(device, layout, mqtt, fps, data))


@hardware_app.command("credentials")
def credentials(
    device: Annotated[
        str | None,
        typer.Option(help="the table's device id: its own login (made on first use), its topics only"),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(help="folder of mqtt-users.toml (default: iwgt serve's data folder)"),
    ] = None,
    host: Annotated[str, typer.Option(help="the broker's address as the table reaches it")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the broker's port (iwgt serve --mqtt-listen)")] = 1883,
    shared_table_login: Annotated[
        bool,
        typer.Option(
            "--shared-table-login",
            help="the old shared login `table` instead (made on first use): it may speak as ANY device",
        ),
    ] = False,
) -> None:
    """Print the broker URL a physical table logs in with: its own user (--device D), made on first use."""
    from iwgt.hardware.broker import BrokerError, Credentials

    if (device is None) == (not shared_table_login):
        typer.echo("iwgt hardware credentials: give --device D (or --shared-table-login)", err=True)
        raise typer.Exit(2)
    try:
        creds = Credentials.of_data(data)
        # A running embedded broker of the same data folder reads the file again at the device's login.
        user = "table" if device is None else device
        if device is None:
            creds.shared_table()
        else:
            creds.device(device)
        typer.echo(creds.url(user, host, port))
    except BrokerError as err:
        typer.echo(f"iwgt hardware credentials: {err}", err=True)
        raise typer.Exit(2) from None


@hardware_app.command("sim")
def sim(
    device: Annotated[
        str, typer.Option(help="the table's device id (topics iwgt/v1/tables/<device>/...)")
    ] = "sim-1",
    layout: Annotated[
        Path | None, typer.Option(help="the table's layout TOML (default: the bundled 30 x 20 table)")
    ] = None,
    mqtt: Annotated[
        str | None,
        typer.Option(help="broker URL mqtt://user:pass@host:port (default: the local one, as the device)"),
    ] = None,
    port: Annotated[int, typer.Option(help="port of the sim's page")] = 8100,
    sensor: Annotated[str, typer.Option(help="presence or identity")] = "presence",
    data: Annotated[Path | None, typer.Option(help="folder of mqtt-users.toml (default: user data)")] = None,
    host: Annotated[str, typer.Option(help="address the page listens on")] = "127.0.0.1",
) -> None:
    """A simulated table in your browser: lift and place pieces, see its LEDs, inject faults; over MQTT."""
    from iwgt.hardware.simweb import main

    raise typer.Exit(main(device, layout, mqtt, port, sensor, data, host))
