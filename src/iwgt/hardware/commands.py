"""The ``iwgt hardware`` commands: layouts, credentials, the LED driver and the simulated table.

Each command is a thin wrapper: it parses options and calls into its own module (layout.py, leds.py, sim.py,
simweb.py, broker.py), importing it lazily so that ``iwgt --help`` stays quick.
"""

from __future__ import annotations

import typer

hardware_app = typer.Typer(
    help="The physical table: layouts, MQTT credentials, LED controllers and a simulated table.",
    no_args_is_help=True,
)
"""The ``iwgt hardware`` group (the engineers of each part add their command here)."""
