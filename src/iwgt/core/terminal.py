"""What every command of ``iwgt`` prints through: the shared commands and the games' own alike."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

console = Console(width=120, highlight=False)
"""A fixed width keeps the reports byte-identical from one terminal to another."""


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on standard error; raise the returned exit (status 2)."""
    # Escaped: a message quoting a file ("a list in [brackets]", "[army]") is text, not Rich markup.
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(2)
