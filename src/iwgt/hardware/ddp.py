"""DDP (the Distributed Display Protocol) packets: RGB data for LED controllers such as WLED, push flag.

The format (http://www.3waylabs.com/ddp/, and WLED's receiver ``wled00/e131.cpp: handleDDPPacket``) is a
10-byte header and the data::

    byte 0     flags VVxTSRQP: version 1 = 0x40, push = 0x01 (query 2, reply 4, storage 8, timecode 0x10)
    byte 1     sequence number in the low 4 bits: 1..15 (0 = not used)
    byte 2     data type: 0x0B = RGB, 8 bits a channel (WLED's DDP_TYPE_RGB24)
    byte 3     destination id: 1 = the default output (the display)
    bytes 4-7  data offset in BYTES, 32-bit big-endian
    bytes 8-9  data length in bytes, 16-bit big-endian

A frame longer than 1440 data bytes (480 RGB LEDs) takes several packets; only the last carries the push flag,
which makes the controller show the frame (several controllers latch together on their pushes). The packets of
a frame get consecutive sequence numbers, wrapping from 15 to 1, as WLED's own sender numbers them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

DDP_PORT: Final = 4048
"""The UDP port DDP receivers listen on (WLED: DDP_DEFAULT_PORT)."""

HEADER_LEN: Final = 10
"""A DDP header without a timecode."""

MAX_DATA: Final = 1440
"""The most data bytes one packet carries (480 RGB LEDs; WLED's DDP_CHANNELS_PER_PACKET)."""

VERSION_1: Final = 0x40
"""Byte 0: protocol version 1 in the two high bits."""

FLAG_PUSH: Final = 0x01
"""Byte 0: show the data received so far (set on a frame's last packet)."""

FLAG_TIMECODE: Final = 0x10
"""Byte 0: a 4-byte timecode follows the header (we never send one)."""

TYPE_RGB24: Final = 0x0B
"""Byte 2: RGB, 8 bits a channel (00 001 011), the value WLED sends."""

ID_DISPLAY: Final = 1
"""Byte 3: the default output device."""

_HEADER = struct.Struct(">BBBBIH")


class DdpError(ValueError):
    """A packet that is not a DDP version 1 data packet, or bad arguments to build one."""


@dataclass(frozen=True, slots=True)
class DdpPacket:
    """One decoded DDP packet."""

    push: bool
    seq: int
    data_type: int
    destination: int
    offset: int  # in bytes
    data: bytes

    @property
    def first_led(self) -> int:
        """The index of the first RGB LED the packet carries (the byte offset over 3)."""
        return self.offset // 3

    def rgb(self) -> npt.NDArray[np.uint8]:
        """The data as an (n, 3) array of RGB LEDs."""
        return np.frombuffer(self.data, dtype=np.uint8).reshape(-1, 3)


def next_seq(seq: int, packets: int = 1) -> int:
    """The sequence number ``packets`` after ``seq`` in the cycle 1..15."""
    return (seq - 1 + packets) % 15 + 1


def ddp_packets(rgb: npt.NDArray[np.uint8], seq: int, offset: int = 0) -> list[bytes]:
    """One frame as DDP packets: ``rgb`` (n, 3) uint8 from byte ``offset`` on; push on the last packet only.

    ``seq`` (1..15) numbers the first packet; the next ones follow (15 wraps to 1). ``offset`` is in bytes
    (3 per LED), as DDP counts it. An empty frame is one push packet without data.
    """
    if not 1 <= seq <= 15:
        raise DdpError(f"sequence number must be 1..15, got {seq}")
    if offset < 0 or offset % 3:
        raise DdpError(f"offset must be a whole number of RGB LEDs (a multiple of 3 bytes), got {offset}")
    data = np.ascontiguousarray(rgb, dtype=np.uint8).tobytes()
    if len(data) % 3:
        raise DdpError(f"RGB data must be 3 bytes a LED, got {len(data)} bytes")
    chunks = [data[i : i + MAX_DATA] for i in range(0, len(data), MAX_DATA)] or [b""]
    packets = []
    for i, chunk in enumerate(chunks):
        flags = VERSION_1 | (FLAG_PUSH if i == len(chunks) - 1 else 0)
        header = _HEADER.pack(
            flags, next_seq(seq, i), TYPE_RGB24, ID_DISPLAY, offset + i * MAX_DATA, len(chunk)
        )
        packets.append(header + chunk)
    return packets


def parse_ddp(packet: bytes) -> DdpPacket:
    """Decode a DDP version 1 packet (a timecode, if flagged, is skipped); raises DdpError if malformed."""
    if len(packet) < HEADER_LEN:
        raise DdpError(f"a DDP packet has a 10-byte header, got {len(packet)} bytes")
    flags, seq, data_type, destination, offset, length = _HEADER.unpack_from(packet)
    if flags & 0xC0 != VERSION_1:
        raise DdpError(f"DDP version must be 1 (flags 0x40), got flags 0x{flags:02x}")
    start = HEADER_LEN + (4 if flags & FLAG_TIMECODE else 0)
    data = packet[start:]
    if len(data) != length:
        raise DdpError(f"header says {length} data bytes, the packet has {len(data)}")
    return DdpPacket(bool(flags & FLAG_PUSH), seq & 0x0F, data_type, destination, offset, bytes(data))
