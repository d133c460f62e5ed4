"""Where the tests find the project's shared sources: the rules texts (``seeds/``) and clauses (``rules/``).

They live in a folder ``shared/`` beside the repository (the clone's parent folder holds both), or wherever
the ``IWGT_SHARED`` environment variable points. Every test that reads them goes through :func:`shared_file`
(or the ``shared`` fixture of ``tests/conftest.py``), so that they are found the same way everywhere. When
the folder is missing, such a test skips with the reason on a developer's machine, but fails in CI
(``CI=true``, as ``.ci/run`` runs), where the folder must be there.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
"""The repository's root (this file is ``tests/shared.py``)."""


def shared_folder() -> Path:
    """The shared folder: ``$IWGT_SHARED`` if set, else ``shared/`` beside the repository."""
    env = os.environ.get("IWGT_SHARED")
    return Path(env).expanduser().resolve() if env else REPOSITORY.parent / "shared"


def in_ci() -> bool:
    """True on the CI machine, where a missing shared folder is an error, not a reason to skip."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def missing(path: Path) -> None:
    """Skip the running test (fail it in CI) because ``path`` is not there."""
    reason = (
        f"the shared sources are missing: {path} (put the project's shared/ folder beside the repository, "
        "or point IWGT_SHARED at it)"
    )
    if in_ci():
        pytest.fail(reason + "; CI must have them", pytrace=False)
    pytest.skip(reason)


def shared_file(*parts: str) -> Path:
    """The file ``shared/<parts...>``, e.g. ``shared_file("seeds", "000_9f29f2bdcadaed54.txt")``: the
    running test skips (or fails in CI) when it is missing."""
    folder = shared_folder()
    if not folder.is_dir():
        missing(folder)
    path = folder.joinpath(*parts)
    if not path.is_file():
        missing(path)
    return path
