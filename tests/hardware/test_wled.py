"""WLED realtime UDP DNRGB packets checked byte by byte (WLED's wiki and wled00/udp.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

from iwgt.hardware.wled import WledError, dnrgb_packets, parse_dnrgb


def test_one_packet_byte_by_byte() -> None:
    rgb = np.array([[255, 0, 0], [0, 128, 7]], dtype=np.uint8)
    [packet] = dnrgb_packets(rgb, start=300, timeout_s=2)
    # protocol 4, timeout 2 s, start 300 = 0x012C high byte first, then R G B per LED
    assert packet == bytes([4, 2, 0x01, 0x2C, 255, 0, 0, 0, 128, 7])


def test_at_most_489_leds_a_packet_with_start_indices() -> None:
    rgb = (np.arange(1000 * 3) % 251).astype(np.uint8).reshape(1000, 3)
    packets = dnrgb_packets(rgb, start=100, timeout_s=5)
    assert [len(p) for p in packets] == [4 + 489 * 3, 4 + 489 * 3, 4 + 22 * 3]
    assert all(p[0] == 4 and p[1] == 5 for p in packets)
    # starts 100 = 0x0064, 589 = 0x024D, 1078 = 0x0436
    assert [p[2:4] for p in packets] == [b"\x00\x64", b"\x02\x4d", b"\x04\x36"]
    decoded = [parse_dnrgb(p) for p in packets]
    assert [d.start for d in decoded] == [100, 589, 1078]
    assert np.array_equal(np.concatenate([d.rgb for d in decoded]), rgb)


def test_refusals() -> None:
    one = np.zeros((1, 3), dtype=np.uint8)
    with pytest.raises(WledError, match=r"1\.\.255"):
        dnrgb_packets(one, timeout_s=0)  # 0 would make WLED leave realtime mode at once
    with pytest.raises(WledError, match="16-bit"):
        dnrgb_packets(np.zeros((2, 3), dtype=np.uint8), start=65535)
    with pytest.raises(WledError, match="protocol byte must be 4"):
        parse_dnrgb(bytes([2, 2, 0, 0, 1, 2, 3]))
    with pytest.raises(WledError, match="3 bytes a LED"):
        parse_dnrgb(bytes([4, 2, 0, 0, 1, 2]))
    with pytest.raises(WledError, match="4-byte header"):
        parse_dnrgb(bytes([4, 2]))
