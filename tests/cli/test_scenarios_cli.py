"""`iwgt scenarios` lists each game's shipped scenarios in that game's own terms."""

from __future__ import annotations

from typer.testing import CliRunner

from iwgt.cli import app


def test_valhalla_scenarios_list_table_sizes_players_and_turns() -> None:
    """Valhalla's scenarios are tables in inches with players on two sides (VH-MS-01, VH-CB-04)."""
    out = CliRunner().invoke(app, ["scenarios", "valhalla"])
    assert out.exit_code == 0, out.output
    assert "first_blood" in out.output and '24" x 16"' in out.output
    assert "2 Raiders v 2 Islanders" in out.output  # the raid: two players a side
    assert "skirmish" in out.output


def test_valkyrx_scenarios_still_list_units() -> None:
    """The Days of the Valkyrx listing is unchanged."""
    out = CliRunner().invoke(app, ["scenarios", "valkyrx"])
    assert out.exit_code == 0, out.output
    assert "great_battle" in out.output and "units" in out.output
