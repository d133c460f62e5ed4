"""Canonical JSON and digests, so a replay can prove each step reproduces."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Sorted-key, compact JSON: equal values give equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    """A short SHA-256 digest of a JSON value."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()[:16]
