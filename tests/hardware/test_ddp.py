"""DDP packets checked byte by byte against the format (3waylabs' DDP spec, WLED's receiver)."""

from __future__ import annotations

import numpy as np
import pytest

from iwgt.hardware.ddp import DdpError, ddp_packets, next_seq, parse_ddp


def leds(n: int) -> np.ndarray:
    """n LEDs whose bytes count up (mod 256), so any misplaced byte shows."""
    return (np.arange(n * 3) % 256).astype(np.uint8).reshape(n, 3)


def test_one_packet_header_byte_by_byte() -> None:
    rgb = np.array([[255, 0, 0], [1, 2, 3]], dtype=np.uint8)
    [packet] = ddp_packets(rgb, seq=5)
    # flags 0x41 (version 1 + push), seq 5, type 0x0B (RGB 8-bit), destination 1, offset 0, length 6
    assert packet == bytes([0x41, 5, 0x0B, 1, 0, 0, 0, 0, 0, 6, 255, 0, 0, 1, 2, 3])


def test_a_frame_splits_at_1440_bytes_with_push_on_the_last_packet_only() -> None:
    rgb = leds(1000)  # 3000 bytes: 1440 + 1440 + 120
    packets = ddp_packets(rgb, seq=14)
    assert [len(p) for p in packets] == [10 + 1440, 10 + 1440, 10 + 120]
    assert [p[0] for p in packets] == [0x40, 0x40, 0x41]
    assert [p[1] for p in packets] == [14, 15, 1]  # consecutive, 15 wraps to 1 (0 means "not used")
    assert all(p[2] == 0x0B and p[3] == 1 for p in packets)
    # byte offsets 0, 1440 = 0x05A0, 2880 = 0x0B40; lengths 1440 = 0x05A0, 120 = 0x0078
    assert packets[0][4:10] == bytes([0, 0, 0, 0, 0x05, 0xA0])
    assert packets[1][4:10] == bytes([0, 0, 0x05, 0xA0, 0x05, 0xA0])
    assert packets[2][4:10] == bytes([0, 0, 0x0B, 0x40, 0x00, 0x78])
    assert b"".join(p[10:] for p in packets) == rgb.tobytes()


def test_offset_is_in_bytes() -> None:
    [packet] = ddp_packets(leds(2), seq=1, offset=900 * 3)  # LED 900: byte 2700 = 0x0A8C
    assert packet[4:8] == bytes([0, 0, 0x0A, 0x8C])
    assert parse_ddp(packet).first_led == 900


def test_parse_round_trip() -> None:
    rgb = leds(600)
    decoded = [parse_ddp(p) for p in ddp_packets(rgb, seq=3, offset=30)]
    assert [d.push for d in decoded] == [False, True]
    assert [d.seq for d in decoded] == [3, 4]
    assert [d.offset for d in decoded] == [30, 30 + 1440]
    assert np.array_equal(np.concatenate([d.rgb() for d in decoded]), rgb)
    assert {(d.data_type, d.destination) for d in decoded} == {(0x0B, 1)}


def test_parse_skips_a_timecode() -> None:
    header = bytes([0x40 | 0x10 | 0x01, 2, 0x0B, 1, 0, 0, 0, 3, 0, 3])
    decoded = parse_ddp(header + b"\x00\x00\x00\x07" + b"\x0a\x0b\x0c")
    assert decoded.data == b"\x0a\x0b\x0c" and decoded.offset == 3 and decoded.push


def test_empty_frame_is_one_push() -> None:
    assert ddp_packets(np.zeros((0, 3), dtype=np.uint8), seq=1) == [
        bytes([0x41, 1, 0x0B, 1, 0, 0, 0, 0, 0, 0])
    ]


def test_refusals() -> None:
    with pytest.raises(DdpError, match=r"1\.\.15"):
        ddp_packets(leds(1), seq=0)
    with pytest.raises(DdpError, match="multiple of 3"):
        ddp_packets(leds(1), seq=1, offset=4)
    with pytest.raises(DdpError, match="10-byte header"):
        parse_ddp(b"\x41\x01")
    with pytest.raises(DdpError, match="version must be 1"):
        parse_ddp(bytes([0x81, 1, 0x0B, 1, 0, 0, 0, 0, 0, 0]))
    with pytest.raises(DdpError, match="says 6 data bytes"):
        parse_ddp(bytes([0x41, 1, 0x0B, 1, 0, 0, 0, 0, 0, 6, 1, 2, 3]))


def test_next_seq_cycles_1_to_15() -> None:
    assert [next_seq(13, k) for k in range(5)] == [13, 14, 15, 1, 2]
