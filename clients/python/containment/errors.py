"""The errors a Containment client raises (docs/PROTOCOL.md, "Errors")."""

from __future__ import annotations

from . import containment_pb2 as pb


class ContainmentError(Exception):
    """The supervisor refused a request: `code` is the protocol's stable code (e.g. "frameAuthority"), `message` its
    sentence. For a batch, `index` is the failing command; when the model judged it, `command_id` and `seq` are those
    of the ruleViolation event published for it (both 0 when it was refused before the model saw it)."""

    def __init__(self, code: str, message: str = "", index: int = 0, command_id: int = 0, seq: int = 0):
        super().__init__(f"{code}: {message}" if message else code)
        self.code, self.message, self.index = code, message, index
        self.command_id, self.seq = command_id, seq

    @classmethod
    def from_pb(cls, error: pb.Error) -> "ContainmentError":
        return cls(error.code, error.message, error.index, error.command_id, error.seq)


class RequestTimeout(ContainmentError):
    """No reply came in time (code "timeout"): the supervisor is down, or did not admit this client's CURVE key."""

    def __init__(self, message: str):
        super().__init__("timeout", message)
