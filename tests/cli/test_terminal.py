"""``fail``: one line on standard error, exit status 2, the message printed as written."""

from __future__ import annotations

import pytest
import typer

from iwgt.core.terminal import fail


def test_fail_prints_the_message_verbatim_even_with_brackets(capsys: pytest.CaptureFixture[str]) -> None:
    exit_ = fail("ford.toml, army.light.0.cell: should be a list in [brackets], got 3 [army] [bold]x[/]")
    assert isinstance(exit_, typer.Exit) and exit_.exit_code == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert (
        out.err
        == "error: ford.toml, army.light.0.cell: should be a list in [brackets], got 3 [army] [bold]x[/]\n"
    )
