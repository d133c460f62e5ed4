"""WLED realtime UDP: DNRGB packets (protocol 4), RGB data from a start LED, with WLED's fall-back timeout.

The format (WLED's wiki "UDP Realtime Control", https://kno.wled.ge/interfaces/udp-realtime, and
``wled00/udp.cpp``), on the notifier's port 21324::

    byte 0       4 = DNRGB
    byte 1       seconds WLED waits after the last packet before it returns to its own mode
                 (0 = leave realtime mode at once; 255 = never time out)
    bytes 2-3    the index of the first LED, high byte first
    bytes 4...   R, G, B of each LED from there on: at most 489 LEDs a packet

Each packet is shown as it arrives (DNRGB has no push flag), and the timeout is what makes a crashed referee
harmless: the controller goes back to its own mode (off, or a preset) a few seconds after the packets stop.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

WLED_PORT: Final = 21324
"""WLED's UDP notifier port, where realtime packets go."""

DNRGB: Final = 4
"""Byte 0: the DNRGB protocol (RGB data from a start index)."""

MAX_LEDS: Final = 489
"""The most LEDs a DNRGB packet carries (WLED's wiki; 4 + 489 * 3 = 1471 bytes, within its 1472)."""

TIMEOUT_NEVER: Final = 255
"""The timeout byte that keeps WLED in realtime mode for good (never used by the driver)."""

_HEADER = struct.Struct(">BBH")


class WledError(ValueError):
    """A packet that is not DNRGB, or bad arguments to build one."""


@dataclass(frozen=True, slots=True)
class DnrgbPacket:
    """One decoded DNRGB packet."""

    timeout_s: int
    start: int
    rgb: npt.NDArray[np.uint8]  # (n, 3)


def dnrgb_packets(rgb: npt.NDArray[np.uint8], start: int = 0, timeout_s: int = 2) -> list[bytes]:
    """The LEDs ``rgb`` ((n, 3) uint8) from LED ``start`` on, as DNRGB packets of at most 489 LEDs each."""
    if not 1 <= timeout_s <= 255:
        raise WledError(f"timeout must be 1..255 seconds (0 would leave realtime mode), got {timeout_s}")
    leds = np.ascontiguousarray(rgb, dtype=np.uint8).reshape(-1, 3)
    if start < 0 or start + len(leds) > 0x10000:
        raise WledError(f"LEDs {start}..{start + len(leds) - 1} do not fit DNRGB's 16-bit start index")
    packets = []
    for i in range(0, max(len(leds), 1), MAX_LEDS):
        chunk = leds[i : i + MAX_LEDS]
        if not len(chunk):
            break
        packets.append(_HEADER.pack(DNRGB, timeout_s, start + i) + chunk.tobytes())
    return packets


def parse_dnrgb(packet: bytes) -> DnrgbPacket:
    """Decode a DNRGB packet; raises WledError if it is not one."""
    if len(packet) < _HEADER.size:
        raise WledError(f"a DNRGB packet has a 4-byte header, got {len(packet)} bytes")
    protocol, timeout_s, start = _HEADER.unpack_from(packet)
    if protocol != DNRGB:
        raise WledError(f"protocol byte must be 4 (DNRGB), got {protocol}")
    data = packet[_HEADER.size :]
    if len(data) % 3:
        raise WledError(f"RGB data must be 3 bytes a LED, got {len(data)} bytes")
    if len(data) > MAX_LEDS * 3:
        raise WledError(f"a DNRGB packet carries at most {MAX_LEDS} LEDs, got {len(data) // 3}")
    rgb = np.frombuffer(data, dtype=np.uint8).reshape(-1, 3).copy()
    return DnrgbPacket(timeout_s, start, rgb)
