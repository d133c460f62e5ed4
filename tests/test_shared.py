"""The shared sources are found the same way everywhere, and their absence skips locally but fails in CI."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.shared import REPOSITORY, shared_file, shared_folder


def test_beside_the_repository_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IWGT_SHARED", raising=False)
    assert shared_folder() == REPOSITORY.parent / "shared"


def test_iwgt_shared_points_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.txt").write_text("rules", encoding="utf-8")
    monkeypatch.setenv("IWGT_SHARED", str(tmp_path))
    assert shared_file("seeds", "a.txt") == tmp_path / "seeds" / "a.txt"


@pytest.mark.parametrize("what", ["folder", "file"])
def test_missing_skips_on_a_developers_machine(
    what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IWGT_SHARED", str(tmp_path / "nowhere" if what == "folder" else tmp_path))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="IWGT_SHARED"):
        shared_file("seeds", "a.txt")


@pytest.mark.parametrize("ci", ["true", "1"])
def test_missing_fails_in_ci(ci: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IWGT_SHARED", str(tmp_path / "nowhere"))
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match="CI must have them"):
        shared_file("seeds", "a.txt")


def test_the_fixture_finds_the_rules_texts_and_clauses(shared: Path) -> None:
    # On this project's machines shared/ holds the rules texts and the clauses the games are written from.
    assert (shared / "seeds").is_dir() and (shared / "rules").is_dir()
