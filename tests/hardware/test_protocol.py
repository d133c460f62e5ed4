"""The physical table's MQTT protocol v1: round trips, every refusal with its message, the doc's examples."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.core.lights import PATTERNS
from iwgt.hardware import protocol as p
from iwgt.hardware.protocol import (
    Ack,
    Birth,
    Command,
    Frame,
    FrameLight,
    LayoutCell,
    Message,
    Occupied,
    Offline,
    ProtocolError,
    RefereeStatus,
    Refusal,
    SensorEvent,
    Snapshot,
    decode,
    decode_status,
    encode,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"
T1 = "iwgt/v1/tables/t1"

# --- strategies ---------------------------------------------------------------------------------------------

cells = st.tuples(st.integers(0, p.MAX_COORDINATE), st.integers(0, p.MAX_COORDINATE))
tokens = st.text(alphabet=[chr(c) for c in range(0x21, 0x7F)], min_size=1, max_size=64)
devices = st.from_regex(r"\A[a-z0-9][a-z0-9_-]{0,31}\Z")
colours = st.from_regex(r"\A#[0-9a-f]{6}\Z")
effects = st.from_regex(r"\A[a-z][a-z0-9_]{0,39}\Z")
sessions = st.integers(1, 2**31 - 1)  # firmware's 32-bit signed counters


@st.composite
def births(draw: st.DrawFn) -> Birth:
    columns = draw(st.integers(1, 8))
    rows = draw(st.integers(1, 8))
    # Every cell of the grid, in any order.
    chosen = draw(st.permutations([(c, r) for r in range(rows) for c in range(columns)]))
    # Disjoint LED sets: deal a shuffled range out to the cells.
    counts = [draw(st.integers(0, 4)) for _ in chosen]
    leds = draw(st.permutations(range(sum(counts))))
    layout, start = [], 0
    for cell, n in zip(chosen, counts, strict=True):
        layout.append(LayoutCell(cell=cell, leds=tuple(leds[start : start + n])))
        start += n
    return Birth(
        device=draw(devices),
        firmware=draw(tokens),
        session=draw(sessions),
        sensor=draw(st.sampled_from(["presence", "identity"])),
        columns=columns,
        rows=rows,
        cell_inches=draw(st.floats(0.01, 100, allow_nan=False, allow_infinity=False)),
        cells=tuple(layout),
    )


offlines = st.builds(Offline, device=devices, session=sessions)
sensor_events = st.builds(
    SensorEvent,
    session=sessions,
    seq=st.integers(1, 2**31 - 1),
    cell=cells,
    event=st.sampled_from(["lifted", "placed"]),
    tag=st.none() | tokens,
    at_ms=st.none() | st.integers(0, 2**40),
)


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    occupied = draw(st.lists(cells, max_size=20, unique=True))
    return Snapshot(
        session=draw(sessions),
        seq=draw(st.integers(0, 2**31 - 1)),
        request=draw(st.none() | tokens),
        occupied=tuple(Occupied(cell=c, tag=draw(st.none() | tokens)) for c in occupied),
    )


frame_lights = st.builds(
    FrameLight,
    cell=cells,
    effect=effects,
    colour=colours,
    pattern=st.sampled_from(PATTERNS),
    delay_ms=st.integers(0, 10**6),
    duration_ms=st.none() | st.integers(1, 10**6),
)
frames = st.builds(
    Frame, referee=tokens, frame=st.integers(1, 2**40), lights=st.lists(frame_lights, max_size=20).map(tuple)
)
commands = st.builds(Command, id=tokens, cmd=st.just("snapshot"), ms=st.integers(100, 60_000)) | st.builds(
    Command, id=tokens, cmd=st.just("identify"), cell=cells, ms=st.integers(100, 60_000)
)
acks = st.builds(Ack, id=tokens, ok=st.just(True)) | st.builds(
    Ack, id=tokens, ok=st.just(False), error=st.text(min_size=1, max_size=2000)
)
refusals = st.builds(
    Refusal,
    error=st.sampled_from(["malformed", "version", "invalid", "unknown"]),
    message=st.text(min_size=1, max_size=2000),
    topic=st.text(max_size=500),
)
referee_statuses = st.builds(RefereeStatus, online=st.booleans(), referee=tokens)

EVERY_MESSAGE = st.one_of(
    births(), offlines, sensor_events, snapshots(), frames, commands, acks, refusals, referee_statuses
)


def _topic_for(message: Message) -> str:
    device = getattr(message, "device", "t1")
    return p.topic(device, "status")


@settings(max_examples=300)
@given(EVERY_MESSAGE)
def test_every_message_survives_encode_and_decode(message: Message) -> None:
    data = encode(message)
    assert decode(type(message), data, _topic_for(message)) == message
    # Null optional fields are left out, never sent as null.
    assert None not in orjson.loads(data).values()


@given(births() | offlines)
def test_a_status_decodes_to_a_birth_or_an_offline_by_online(message: Birth | Offline) -> None:
    assert decode_status(encode(message), _topic_for(message)) == message


def test_encode_is_compact_and_leaves_null_fields_out() -> None:
    event = SensorEvent(session=2, seq=5, cell=(4, 3), event="lifted")
    assert encode(event) == b'{"v":1,"session":2,"seq":5,"cell":[4,3],"event":"lifted"}'
    offline = Offline(device="t1", session=3)
    assert encode(offline) == b'{"v":1,"device":"t1","online":false,"session":3}'


def test_encode_refuses_a_message_over_the_limit() -> None:
    light = FrameLight(cell=(1, 1), effect="destination", colour="#22c55e", pattern="steady")
    # One light encodes to about 90 bytes: 3,000 of them pass 256 KiB.
    frame = Frame(referee="r", frame=1, lights=(light,) * 3000)
    with pytest.raises(ValueError, match=r"frame of .* bytes is over the protocol's 262144 bytes"):
        encode(frame)


def test_patterns_are_core_lights_patterns() -> None:
    assert get_args(p.Pattern) == PATTERNS


# --- refusals: the envelope ---------------------------------------------------------------------------------


def refused(
    model: type[Message], payload: bytes | str, leaf: str = "sensor", device: str = "t1"
) -> ProtocolError:
    data = payload.encode() if isinstance(payload, str) else payload
    with pytest.raises(ProtocolError) as caught:
        decode(model, data, p.topic(device, leaf))
    return caught.value


def test_malformed_json_is_refused() -> None:
    error = refused(SensorEvent, b'{"v": 1, "seq": ')
    assert error.code == "malformed"
    assert error.topic == f"{T1}/sensor"
    assert str(error).startswith(f"sensor on {T1}/sensor: not JSON: ")


def test_invalid_utf8_is_malformed() -> None:
    assert refused(SensorEvent, b'{"v": 1, "tag": "\xff"}').code == "malformed"


@pytest.mark.parametrize(
    ("payload", "kind"), [("[1, 2]", "list"), ('"v"', "str"), ("1", "int"), ("null", "NoneType")]
)
def test_a_payload_that_is_not_an_object_is_malformed(payload: str, kind: str) -> None:
    error = refused(SensorEvent, payload)
    assert (error.code, str(error)) == ("malformed", f"sensor on {T1}/sensor: not a JSON object but {kind}")


def test_a_payload_over_256_kib_is_malformed() -> None:
    payload = b'{"v": 1, "pad": "' + b"x" * p.MAX_PAYLOAD + b'"}'
    error = refused(SensorEvent, payload)
    assert error.code == "malformed"
    assert str(error) == f"sensor on {T1}/sensor: too large: {len(payload)} bytes, at most 262144"
    # Exactly at the limit, the size passes (and the fields are judged instead).
    at_limit = b'{"v": 1, "pad": "' + b"x" * (p.MAX_PAYLOAD - 19) + b'"}'
    assert len(at_limit) == p.MAX_PAYLOAD
    assert refused(SensorEvent, at_limit).code == "invalid"


@pytest.mark.parametrize(
    ("payload", "got"),
    [
        ('{"v": 2, "session": 1}', "got 2"),
        ('{"v": "1", "session": 1}', 'got "1"'),
        ('{"v": true}', "got true"),
        ('{"v": 1.0}', "got 1.0"),
        ('{"session": 1}', "missing"),
    ],
)
def test_a_wrong_version_is_refused_before_any_field(payload: str, got: str) -> None:
    error = refused(SensorEvent, payload)
    assert error.code == "version"
    assert str(error) == f"sensor on {T1}/sensor: v: this is protocol version 1, {got}"


# --- refusals: fields ---------------------------------------------------------------------------------------

GOOD_EVENT: dict[str, Any] = {"v": 1, "session": 7, "seq": 12, "cell": [4, 3], "event": "lifted"}


def event_with(**changes: Any) -> bytes:
    data = {**GOOD_EVENT, **changes}
    return orjson.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"seq": 0}, "seq: must be at least 1"),
        ({"session": 0}, "session: must be at least 1"),
        ({"seq": "12"}, "seq: must be an integer"),
        ({"seq": True}, "seq: must be an integer"),
        ({"seq": ...}, "seq: missing"),
        ({"colour": "#ffffff"}, "colour: unknown field"),
        ({"event": "dropped"}, "event: must be 'lifted' or 'placed', got \"dropped\""),
        ({"tag": ""}, 'tag: must be 1 to 64 printable characters without spaces, got ""'),
        ({"tag": "a b"}, 'tag: must be 1 to 64 printable characters without spaces, got "a b"'),
        ({"at_ms": -1}, "at_ms: must be at least 0"),
        (
            {"seq": 2**31},
            "seq: must be at most 2147483647 (2**31 - 1: firmware keeps it in a 32-bit signed integer)",
        ),
        (
            {"session": 2**31},
            "session: must be at most 2147483647 (2**31 - 1: firmware keeps it in a 32-bit signed integer)",
        ),
    ],
)
def test_a_bad_field_of_a_sensor_event_is_refused_with_its_name(changes: dict[str, Any], why: str) -> None:
    error = refused(SensorEvent, event_with(**changes))
    assert (error.code, str(error)) == ("invalid", f"sensor on {T1}/sensor: {why}")


@pytest.mark.parametrize(
    "cell", [[4, -3], [4], [4, 3, 0], [4.0, 3], [4, True], "4,3", {"c": 4, "r": 3}, None, [1024, 0]]
)
def test_a_bad_cell_is_refused(cell: Any) -> None:
    error = refused(SensorEvent, event_with(cell=cell))
    got = orjson.dumps(cell).decode()
    assert error.code == "invalid"
    assert str(error) == (
        f"sensor on {T1}/sensor: cell: must be a cell [column, row]: two integers from 0 to 1023, got {got}"
    )


def test_the_biggest_cell_passes() -> None:
    assert decode(SensorEvent, event_with(cell=[1023, 1023]), f"{T1}/sensor").cell == (1023, 1023)


def test_several_bad_fields_are_listed_then_counted() -> None:
    payload = orjson.dumps({"v": 1, "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "session": 1})
    error = refused(SensorEvent, payload)
    # seq, cell and event are missing; six unknown fields: the first five errors, then how many more.
    assert str(error).startswith(f"sensor on {T1}/sensor: ")
    assert str(error).endswith("(and 4 more)")
    assert str(error).count("; ") == 4


LIGHT: dict[str, Any] = {"cell": [5, 3], "effect": "destination", "colour": "#22c55e", "pattern": "steady"}


def frame_with(**changes: Any) -> bytes:
    return orjson.dumps({"v": 1, "referee": "r-1", "frame": 4, "lights": [LIGHT, {**LIGHT, **changes}]})


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"colour": "#22C55E"}, 'lights.1.colour: must be a colour #rrggbb in lower case, got "#22C55E"'),
        ({"colour": "#fff"}, 'lights.1.colour: must be a colour #rrggbb in lower case, got "#fff"'),
        ({"colour": "green"}, 'lights.1.colour: must be a colour #rrggbb in lower case, got "green"'),
        (
            {"pattern": "strobe"},
            "lights.1.pattern: must be 'steady', 'flash', 'alternate', 'wave', 'flicker' or 'pulse', "
            'got "strobe"',
        ),
        (
            {"effect": "Spell-Wave"},
            'lights.1.effect: must be an effect name: a-z, 0-9 and _, at most 40, got "Spell-Wave"',
        ),
        ({"delay_ms": -5}, "lights.1.delay_ms: must be at least 0"),
        ({"duration_ms": 0}, "lights.1.duration_ms: must be at least 1"),
        (
            {"cell": [5, -1]},
            "lights.1.cell: must be a cell [column, row]: two integers from 0 to 1023, got [5,-1]",
        ),
        ({"blink": True}, "lights.1.blink: unknown field"),
    ],
)
def test_a_bad_light_is_refused_with_its_place_in_the_frame(changes: dict[str, Any], why: str) -> None:
    error = refused(Frame, frame_with(**changes), leaf="frame")
    assert (error.code, str(error)) == ("invalid", f"frame on {T1}/frame: {why}")


def test_a_frame_number_counts_from_one() -> None:
    error = refused(Frame, b'{"v": 1, "referee": "r-1", "frame": 0, "lights": []}', leaf="frame")
    assert str(error) == f"frame on {T1}/frame: frame: must be at least 1"
    assert decode(Frame, b'{"v": 1, "referee": "r-1", "frame": 1, "lights": []}', f"{T1}/frame").lights == ()


BIRTH: dict[str, Any] = {
    "v": 1,
    "device": "t1",
    "online": True,
    "firmware": "1.0",
    "session": 1,
    "sensor": "presence",
    "columns": 2,
    "rows": 2,
    "cell_inches": 2,
    "cells": [
        {"cell": [0, 0], "leds": [0, 1]},
        {"cell": [1, 0], "leds": [2, 3]},
        {"cell": [0, 1], "leds": [4, 5]},
        {"cell": [1, 1], "leds": [6, 7]},
    ],
}
ONE_BY_ONE: dict[str, Any] = {"columns": 1, "rows": 1}


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        (
            {"device": "T1"},
            "device: must be a device id: 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit, "
            'got "T1"',
        ),
        ({"device": "t2"}, "device: 't2' is not the topic's device 't1'"),
        (
            {**ONE_BY_ONE, "cells": [{"cell": [2, 0], "leds": [0]}]},
            "cells.0.cell: [2, 0] is off the 1 x 1 grid",
        ),
        (
            {**ONE_BY_ONE, "cells": [{"cell": [0, 0], "leds": [0]}, {"cell": [0, 0], "leds": [1]}]},
            "cells.1.cell: [0, 0] is listed twice",
        ),
        (
            {
                "columns": 2,
                "rows": 1,
                "cells": [{"cell": [0, 0], "leds": [0, 1]}, {"cell": [1, 0], "leds": [1, 2]}],
            },
            "cells.1.leds: LED 1 is on two cells (or twice on one)",
        ),
        (
            {**ONE_BY_ONE, "cells": [{"cell": [0, 0], "leds": [3, 3]}]},
            "cells.0.leds: LED 3 is on two cells (or twice on one)",
        ),
        ({**ONE_BY_ONE, "cells": [{"cell": [0, 0], "leds": [-1]}]}, "cells.0.leds.0: must be at least 0"),
        ({"cells": []}, "cells: a table has at least one cell"),
        ({"columns": 0}, "columns: must be at least 1"),
        ({"rows": 1025}, "rows: must be at most 1024"),
        ({"cell_inches": 0}, "cell_inches: must be more than 0"),
        ({"sensor": "weight"}, "sensor: must be 'presence' or 'identity', got \"weight\""),
        ({"online": False}, "online: must be True, got false"),
        ({"firmware": ""}, 'firmware: must be 1 to 64 printable characters without spaces, got ""'),
    ],
)
def test_a_bad_birth_is_refused(changes: dict[str, Any], why: str) -> None:
    error = refused(Birth, orjson.dumps({**BIRTH, **changes}), leaf="status")
    assert (error.code, str(error)) == ("invalid", f"birth on {T1}/status: {why}")


def test_a_birth_is_read_as_such() -> None:
    birth = decode(Birth, orjson.dumps(BIRTH), f"{T1}/status")
    assert birth.cell_inches == 2.0
    assert birth.cells[3] == LayoutCell(cell=(1, 1), leds=(6, 7))


def test_an_offline_will_must_be_the_topic_device() -> None:
    payload = b'{"v": 1, "device": "t2", "online": false, "session": 3}'
    with pytest.raises(ProtocolError, match=r"^offline on iwgt/v1/tables/t1/status: device: 't2' is not"):
        decode_status(payload, f"{T1}/status")
    assert decode_status(payload, "iwgt/v1/tables/t2/status") == Offline(device="t2", session=3)


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        ('{"v": 1, "id": "c1", "cmd": "identify"}', "cell: identify needs the cell to blink"),
        ('{"v": 1, "id": "c1", "cmd": "snapshot", "cell": [1, 1]}', "cell: only identify takes a cell"),
        ('{"v": 1, "id": "c1", "cmd": "identify", "cell": [1, 1], "ms": 99}', "ms: must be at least 100"),
        ('{"v": 1, "id": "c1", "cmd": "identify", "cell": [1, 1], "ms": 60001}', "ms: must be at most 60000"),
        (
            '{"v": 1, "id": "", "cmd": "snapshot"}',
            'id: must be 1 to 64 printable characters without spaces, got ""',
        ),
        ('{"v": 1, "id": "c1", "cmd": "reboot"}', "cmd: must be 'snapshot' or 'identify', got \"reboot\""),
    ],
)
def test_a_bad_command_is_refused(payload: str, why: str) -> None:
    error = refused(Command, payload, leaf="cmd")
    assert (error.code, str(error)) == ("invalid", f"command on {T1}/cmd: {why}")


def test_identify_blinks_three_seconds_by_default() -> None:
    command = decode(Command, b'{"v": 1, "id": "c9", "cmd": "identify", "cell": [0, 0]}', f"{T1}/cmd")
    assert (command.cell, command.ms) == ((0, 0), 3000)


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        ('{"v": 1, "id": "c1", "ok": false}', "error: a refused command (ok false) says why"),
        (
            '{"v": 1, "id": "c1", "ok": true, "error": "why"}',
            "error: only a refused command (ok false) has an error",
        ),
        ('{"v": 1, "id": "c1", "ok": 1}', "ok: must be true or false"),
    ],
)
def test_a_bad_ack_is_refused(payload: str, why: str) -> None:
    error = refused(Ack, payload, leaf="ack")
    assert (error.code, str(error)) == ("invalid", f"ack on {T1}/ack: {why}")


def test_a_snapshot_lists_each_cell_once() -> None:
    payload = (
        b'{"v": 1, "session": 1, "seq": 0, "occupied": [{"cell": [1, 1]}, {"cell": [1, 1], "tag": "x"}]}'
    )
    error = refused(Snapshot, payload, leaf="snapshot")
    assert str(error) == f"snapshot on {T1}/snapshot: occupied.1.cell: [1, 1] is listed twice"
    assert (
        refused(Snapshot, b'{"v": 1, "session": 1, "seq": -1, "occupied": []}', "snapshot").code == "invalid"
    )


def test_a_refusal_answers_a_protocol_error() -> None:
    error = refused(SensorEvent, event_with(seq=0))
    assert error.refusal() == Refusal(
        error="invalid", message=f"sensor on {T1}/sensor: seq: must be at least 1", topic=f"{T1}/sensor"
    )


def test_a_refusal_never_echoes_a_long_value() -> None:
    error = refused(SensorEvent, event_with(tag="x" * 5000))
    assert len(str(error)) < 200
    assert str(error).endswith('got "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...')


# --- topics -------------------------------------------------------------------------------------------------


def test_topics_of_a_device() -> None:
    assert p.topic("t1", "sensor") == "iwgt/v1/tables/t1/sensor"
    assert p.topic("sim-1", "frame") == "iwgt/v1/tables/sim-1/frame"
    assert p.parse_topic("iwgt/v1/tables/sim-1/frame") == ("sim-1", "frame")
    assert all(p.parse_topic(p.topic("t1", leaf)) == ("t1", leaf) for leaf in p.LEAVES)
    assert set(p.TABLE_LEAVES) | set(p.REFEREE_LEAVES) == set(p.LEAVES)
    assert p.parse_topic(p.REFEREE_STATUS) is None


@pytest.mark.parametrize("device", ["T1", "", "-t1", "t 1", "t/1", "a" * 33, "t1+", "#"])
def test_a_bad_device_id_is_refused(device: str) -> None:
    with pytest.raises(ValueError, match="bad device id"):
        p.topic(device, "sensor")
    assert p.parse_topic(f"iwgt/v1/tables/{device}/sensor") is None
    assert not p.is_device(device)


def test_the_longest_device_id_passes() -> None:
    assert p.is_device("a" + "b_-9" * 7 + "cde")
    assert len("a" + "b_-9" * 7 + "cde") == 32


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (
            "iwgt/v1/tables/t1/sensors",
            "leaf 'sensors' is not one of status, sensor, snapshot, ack, frame, cmd, error",
        ),
        ("iwgt/v1/tables/T1/sensor", "'T1' is not a device id"),
        ("iwgt/v2/tables/t1/sensor", "expected iwgt/v1/tables/<device>/<leaf>"),
        ("iwgt/v1/tables/t1/sensor/x", "expected iwgt/v1/tables/<device>/<leaf>"),
        ("iwgt/v1/tables/t1", "expected iwgt/v1/tables/<device>/<leaf>"),
    ],
)
def test_an_unknown_topic_is_refused_with_why(name: str, why: str) -> None:
    assert p.parse_topic(name) is None
    with pytest.raises(ProtocolError) as caught:
        p.check_topic(name)
    assert (caught.value.code, str(caught.value), caught.value.topic) == (
        "unknown",
        f"unknown topic {name}: {why}",
        name,
    )


def test_an_unknown_leaf_cannot_be_built() -> None:
    with pytest.raises(ValueError, match="unknown leaf 'sensors'"):
        p.topic("t1", "sensors")


def test_qos_and_retain_follow_the_table() -> None:
    assert p.QOS == {"status": 1, "sensor": 1, "snapshot": 1, "ack": 1, "frame": 1, "cmd": 1, "error": 0}
    assert {leaf for leaf in p.LEAVES if p.RETAIN.get(leaf, False)} == {"status", "frame"}


# --- the doc's examples -------------------------------------------------------------------------------------

DOC_MODELS: dict[str, tuple[type[Message], str]] = {
    "birth": (Birth, f"{T1}/status"),
    "offline": (Offline, f"{T1}/status"),
    "sensor": (SensorEvent, f"{T1}/sensor"),
    "snapshot": (Snapshot, f"{T1}/snapshot"),
    "frame": (Frame, f"{T1}/frame"),
    "command": (Command, f"{T1}/cmd"),
    "ack": (Ack, f"{T1}/ack"),
    "refusal": (Refusal, f"{T1}/error"),
    "referee-status": (RefereeStatus, p.REFEREE_STATUS),
}


def doc_blocks() -> list[tuple[str, str]]:
    """Every ```json <kind> block of docs/hardware.md, in order."""
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"^```json ([a-z-]+)\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def test_the_doc_shows_every_message() -> None:
    kinds = [kind for kind, _ in doc_blocks()]
    assert set(kinds) == set(DOC_MODELS) | {"bad-sensor"}
    # A plain ```json block would escape this test: every JSON block names its message.
    assert not re.search(r"^```json\s*$", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)


@pytest.mark.parametrize(("kind", "body"), [b for b in doc_blocks() if b[0] != "bad-sensor"])
def test_each_doc_example_is_a_valid_message(kind: str, body: str) -> None:
    model, name = DOC_MODELS[kind]
    message = decode(model, body.encode(), name)
    # And the referee's own encoding of it reads back the same.
    assert decode(model, encode(message), name) == message


def test_the_doc_refusal_is_what_the_referee_answers() -> None:
    blocks = dict(doc_blocks())  # the last of each kind: there is one bad example and one refusal
    with pytest.raises(ProtocolError) as caught:
        decode(SensorEvent, blocks["bad-sensor"].encode(), f"{T1}/sensor")
    assert caught.value.refusal() == decode(Refusal, blocks["refusal"].encode(), f"{T1}/error")


def test_the_doc_lists_every_error_code_and_leaf() -> None:
    text = DOC.read_text(encoding="utf-8")
    for code in get_args(p.ErrorCode):
        assert f"| `{code}` |" in text
    for leaf in p.LEAVES:
        assert f"| `{leaf}` |" in text


def test_the_doc_topics_table_is_the_protocols() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z]+)` \| (table|referee) \| ([01]) \| (yes|no) \|", text, flags=re.MULTILINE)
    assert {leaf for leaf, *_ in rows} == set(p.LEAVES)
    for leaf, sender, qos, retained in rows:
        assert (sender == "table") == (leaf in p.TABLE_LEAVES)
        assert int(qos) == p.QOS[leaf]
        assert (retained == "yes") == p.RETAIN.get(leaf, False)


def test_session_and_seq_stop_at_2_31_minus_1() -> None:
    # 2**31 - 1 = 2147483647, the largest 32-bit signed integer: taken; one more is refused in every message.
    top = 2**31 - 1
    assert p.MAX_COUNTER == top == 2147483647
    assert decode(SensorEvent, event_with(session=top, seq=top), f"{T1}/sensor").seq == top
    assert decode(
        Snapshot, orjson.dumps({"v": 1, "session": top, "seq": top, "occupied": []}), f"{T1}/snapshot"
    )
    at_most = "must be at most 2147483647 (2**31 - 1: firmware keeps it in a 32-bit signed integer)"
    snap = refused(Snapshot, orjson.dumps({"v": 1, "session": 1, "seq": top + 1, "occupied": []}), "snapshot")
    assert str(snap) == f"snapshot on {T1}/snapshot: seq: {at_most}"
    gone = refused(Offline, b'{"v": 1, "device": "t1", "online": false, "session": 2147483648}', "status")
    assert str(gone) == f"offline on {T1}/status: session: {at_most}"
    with pytest.raises(ValueError, match="less than or equal to 2147483647"):
        SensorEvent(session=1, seq=top + 1, cell=(0, 0), event="placed")
