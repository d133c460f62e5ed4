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
