"""Reading the supervisor's journal (docs/PROTOCOL.md, "The journal")."""

from __future__ import annotations

import os
from pathlib import Path

from . import containment_pb2 as pb


def _crc32c_table() -> list[int]:
    table = []
    for index in range(256):
        crc = index
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC32C = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), the checksum of every journal record."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC32C[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def read_journal(directory: str | os.PathLike) -> list[pb.JournalRecord]:
    """The JournalRecords of a journal directory: its segments (segment-NNNNNNNN.log) in order, each the magic
    CNTJRNL1 and then records framed as u32 length, u32 CRC-32C of the payload (both little-endian) and the payload.
    The last segment may end in zeros (its reserved space): they end the journal. A torn last record is left out, as
    the supervisor cuts it; damage anywhere else raises ValueError."""
    segments = sorted(Path(directory).glob("segment-*.log"))
    records = []
    for position, segment in enumerate(segments):
        data = segment.read_bytes()
        last = position == len(segments) - 1

        def only_zeros_from(offset: int) -> bool:
            return data[offset:].strip(b"\0") == b""

        if data[:8] != b"CNTJRNL1":
            if last and only_zeros_from(0):
                break  # a segment begun as the supervisor died: its header is torn
            raise ValueError(f"{segment}: not a journal segment")
        offset = 8
        while offset < len(data):
            if offset + 8 > len(data):
                if last:
                    break
                raise ValueError(f"{segment}: a record header is cut short at {offset}")
            length = int.from_bytes(data[offset : offset + 4], "little")
            checksum = int.from_bytes(data[offset + 4 : offset + 8], "little")
            if length == 0 and last and only_zeros_from(offset):
                break  # the reserved space: the end of the journal
            end = offset + 8 + length
            payload = data[offset + 8 : end]
            if length == 0 or len(payload) < length or crc32c(payload) != checksum:
                if last and (end >= len(data) or only_zeros_from(end)):
                    break  # a torn tail
                raise ValueError(f"{segment}: damaged at {offset}")
            records.append(pb.JournalRecord.FromString(payload))
            offset += 8 + length
    return records
