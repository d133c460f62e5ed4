"""Every test runs with a third game on the table: the example Pig of ``examples/iwgt-pig``.

Pig is registered exactly as a separately installed game would be, through its ``iwgt.games`` entry point,
without a line of iwgt changed: its source folder and a folder holding its (committed, static) dist-info go
on ``sys.path`` here, before anything reads the registry, since ``importlib.metadata`` finds distributions in
any ``sys.path`` folder. They also go on ``PYTHONPATH``, so that the ``iwgt serve`` processes the browser
tests start see the same three games.

The ``shared`` fixture gives the project's shared folder (rules texts and clauses) beside the repository.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.shared import missing, shared_folder

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iwgt-pig"
EXAMPLE_PATHS = [str(EXAMPLE / "src"), str(EXAMPLE / "registration")]
"""The example's package and its registration, as an installed distribution would have them."""

for folder in reversed(EXAMPLE_PATHS):
    if folder not in sys.path:
        sys.path.insert(0, folder)

_inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in EXAMPLE_PATHS]
os.environ["PYTHONPATH"] = os.pathsep.join([*EXAMPLE_PATHS, *_inherited])


@pytest.fixture(scope="session")
def shared() -> Path:
    """The project's shared folder (rules texts in ``seeds/``, clauses in ``rules/``), found as
    ``tests/shared.py`` says; a test using it skips when the folder is missing, and fails in CI."""
    folder = shared_folder()
    if not folder.is_dir():
        missing(folder)
    return folder


SPLIT_FILES = frozenset(
    {
        "tests/conformance/test_conformance.py",
        "tests/games/valhalla/test_bot.py",
        "tests/games/valhalla/test_properties.py",
        "tests/games/valhalla/test_simulate_cli.py",
    }
)
"""The longest test files, whose tests share no module-scoped fixture and need no order: under ``make test``
they are spread over the pytest-xdist workers test by test (see ``pytest_xdist_make_scheduler``)."""


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``make test`` runs pytest-xdist with ``--dist loadfile``: each file's tests on one worker, so that a
    file's module-scoped fixtures (a browser and its ``iwgt serve``, a bot's games) are built once and its
    tests run in their written order; but the few longest files (``SPLIT_FILES``) are spread test by test,
    or one of them alone would set the run's length. (``--dist loadgroup`` would say this with marks, but
    pytest-xdist 3.8 cannot read its groups under pytest 9.2's node ids.)"""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SplitLongFiles(LoadFileScheduling):
        """Work units of one file each, except the files of ``SPLIT_FILES``: one unit per test."""

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return nodeid if path in SPLIT_FILES else path

    return SplitLongFiles(config, log)
