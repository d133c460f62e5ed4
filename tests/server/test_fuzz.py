"""Fuzzing the HTTP API and the socket with message shapes: every answer is one of the documented ones.

Hypothesis draws JSON of every kind (deep, huge numbers, lone surrogates, wrong types) inside the shapes the
server expects (create and import bodies; act, select, preview, die, hello, ping messages). Every answer must
be a documented success or the structured error ``{"error", "message"}`` with a documented code (never an
HTTP 500 nor ``internal``), and nothing may change without a success: a refused create makes no table, and
the journal grows only by the steps an ack names. The runs are bounded to stay well under a minute.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .kit import JSON, create, pair, serving, steps

pytestmark = pytest.mark.timeout(120)

SOCKET_CODES = {"malformed", "illegal", "ambiguous", "not_your_turn", "unauthorized", "too_large", "over"}
"""The socket's documented refusals a fuzzed message may get (``internal`` is a bug, ``rate_limited`` is
turned off here by a large bucket)."""

HTTP_CODES = {400: "malformed", 403: "forbidden", 404: "not_found", 409: "conflict", 413: "too_large"}

EXAMPLES = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-3, max_value=12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["\ud800", "valkyrx", "valhalla", "skirmish", "first_blood", "human", "bot", "confirm"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
deep = st.integers(min_value=30, max_value=3000).map(lambda n: "[" * n + "]" * n)

KINDS = ["act", "select", "preview", "die", "hello", "ping", "quit-not", "", "view"]
ACTION_TYPES = ["place", "confirm-not", "move", "end_phase-not", "charge", "shoot", "cast", "x"]


@st.composite
def socket_messages(draw: Any) -> str:
    """A socket message's text: mostly the expected shape with fuzzed fields, sometimes anything at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(deep, values.map(json.dumps), st.text(max_size=40)))
    msg: JSON = {"type": draw(st.sampled_from(KINDS) | st.text(max_size=8))}
    for key in ("id", "seat", "unit", "face", "token"):
        if draw(st.booleans()):
            msg[key] = draw(values)
    if draw(st.booleans()):
        action: JSON = {"type": draw(st.sampled_from(ACTION_TYPES) | st.text(max_size=8))}
        action.update(
            draw(st.dictionaries(st.sampled_from(["unit", "to", "figure", "target", "spell"]), values))
        )
        msg["action"] = action
    else:
        msg["action"] = draw(values)
    return json.dumps(msg)


@st.composite
def bodies(draw: Any) -> str:
    """A create or import body: the expected fields with fuzzed values, sometimes anything at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(deep, values.map(json.dumps), st.text(max_size=40)))
    keys = ["game", "scenario", "seats", "mode", "dice", "timer_seconds", "seed", "steps", "scenario_toml"]
    body = draw(st.dictionaries(st.sampled_from(keys), values, max_size=6))
    if draw(st.booleans()):
        body["game"] = draw(st.sampled_from(["valkyrx", "valhalla"]))
    return json.dumps(body)


def structured(body: JSON, codes: set[str]) -> None:
    assert isinstance(body.get("error"), str) and isinstance(body.get("message"), str), body
    assert body["error"] in codes, body


def test_fuzzed_create_and_import_bodies_get_documented_answers(tmp_path: Path) -> None:
    with serving(tmp_path) as c:

        @EXAMPLES
        @given(text=bodies(), path=st.sampled_from(["/api/tables", "/api/tables/import"]))
        def run(text: str, path: str) -> None:
            before = len(c.get("/api/tables").json())
            r = c.post(path, content=text.encode("utf-8", "surrogatepass"))
            after = len(c.get("/api/tables").json())
            if r.status_code == 201:
                assert after == before + 1
                return
            assert r.status_code in HTTP_CODES, (r.status_code, r.text)
            body = r.json()
            assert set(body) == {"error", "message"}, body
            structured(body, {HTTP_CODES[r.status_code]})
            assert after == before  # nothing created

        run()


def test_fuzzed_socket_messages_get_documented_answers(tmp_path: Path) -> None:
    with serving(tmp_path, rate_burst=10**6) as c:
        made = create(c)
        tid = made["id"]
        counter = itertools.count()
        with pair(c, made) as (s0, s1):

            @EXAMPLES
            @given(text=socket_messages(), seat=st.sampled_from([0, 1]))
            def run(text: str, seat: int) -> None:
                s = (s0, s1)[seat]
                n = len(steps(c, tid))
                fence = f"fence-{next(counter)}"
                s.send_text(text)
                s.send_text(json.dumps({"type": "fence", "id": fence}))  # refused, after the fuzzed one
                answers = []
                while (m := s.recv()).get("id") != fence or m["type"] != "error":
                    if m["type"] != "view":
                        answers.append(m)
                assert answers, f"no answer to {text!r}"  # every message is answered, if only refused
                acked = 0
                for m in answers:
                    if m["type"] == "error":
                        assert set(m) == {"type", "id", "error", "message", "lights"}, m
                        structured(m, SOCKET_CODES)
                    elif m["type"] == "ack":
                        acked = max(acked, m["version"])
                    else:
                        assert m["type"] in ("pong", "selection", "preview"), m
                # The journal grows only by what an ack named.
                assert len(steps(c, tid)) == (acked if acked else n)

            run()
