"""Building commands without spelling out protobuf messages."""

from __future__ import annotations

from typing import Any

from . import containment_pb2 as pb


def command(by: str, **kind: dict[str, Any]) -> pb.Command:
    """One Command, its kind given as a keyword whose value holds the kind's fields (nested messages as dicts), as
    proto/containment.proto names them. `by` is the party issuing it: a controller id, `window:NAME`, `system`, or ""
    for the natural party (docs/PROTOCOL.md, "Commands and the `by` field").

        command("system", create={"id": "py", "kind": "content"})
        command("menu", set_frame={"view": "py", "frame": {"width": 100, "height": 50}})
    """
    if len(kind) != 1:
        raise TypeError(f"a command has exactly one kind, got {sorted(kind) or 'none'}")
    return pb.Command(by=by, **kind)
