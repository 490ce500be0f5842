"""The client: a SUB on the event socket and a DEALER on the command socket (docs/PROTOCOL.md).

Requests carry request ids (from 1, increasing) and, for commands, this client's id, so that a request resent after
its reply did not come is answered with the first answer and never applied twice ("Exactly once"). Refusals raise
ContainmentError with the protocol's code; events come typed (events.Event), heartbeats told apart by their topic.
"""

from __future__ import annotations

import collections
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

import zmq

from . import containment_pb2 as pb
from .endpoints import CurveKeys, default_endpoints
from .errors import ContainmentError, RequestTimeout
from .events import Event, Heartbeat

HEARTBEAT_TOPIC = b"heartbeat"


@dataclass(frozen=True)
class Accepted:
    """The answer to an accepted batch: its command id and the events it published, in order.

    `elided`: for a resend whose first answer was too large to keep (docs/PROTOCOL.md, "Exactly once"), the seqs of
    the events it published, which `events` then leaves out; None otherwise."""

    request_id: int
    command_id: int
    events: list[Event]
    elided: Optional[range] = None


@dataclass(frozen=True)
class Parameter:
    """A typed method's parameter: its argument label ("_" for none) and the JSON Schema of its value."""

    label: str
    schema: dict


@dataclass(frozen=True)
class Method:
    """A typed method of a controller's kind, by its declared Swift name (`insert(child:at:)`), as its host
    registered it: its parameters, and the JSON Schema of its result ({"type": "null"} when it returns nothing; {}
    where the host could not tell)."""

    name: str
    parameters: list[Parameter]
    result: dict


@dataclass(frozen=True)
class Methods:
    """What a controller can be called with (`containment methods`): its kind's string verbs and typed methods."""

    controller: str
    kind: str
    host: str
    verbs: list[str]
    methods: dict[str, Method]


def labels_of(name: str) -> list[str]:
    """The argument labels of a declared name: `insert(child:at:)` gives ["child", "at"], `add(_:)` ["_"]."""
    if "(" not in name or not name.endswith(")"):
        return []
    inner = name[name.index("(") + 1:-1]
    return [label for label in inner.split(":") if label]


def _schema(text: str) -> dict:
    return json.loads(text) if text else {}


def _body(reply: pb.ServerMessage, expected: str):
    """The reply's `expected` body; raises ContainmentError for an `error` body."""
    kind = reply.WhichOneof("body")
    if kind == "error":
        raise ContainmentError.from_pb(reply.error)
    if kind != expected:
        raise ValueError(f"expected a {expected} reply, got {kind}")
    return getattr(reply, expected)


def _milliseconds(seconds: float) -> int:
    return max(0, int(seconds * 1000))


class Client:
    """A connection to a runtime. `command` and `events` default to the endpoints of `run_dir` (itself defaulting to
    CONTAINMENT_RUN_DIR, else $TMPDIR/containment-$USER). `topics` are the event prefixes subscribed to at once (""
    is everything; () none). With `curve`, both sockets connect as CURVE clients. A request without a reply is sent
    again, unchanged, every `resend_after` seconds, and fails with RequestTimeout after `timeout` seconds."""

    def __init__(
        self,
        command: Optional[str] = None,
        events: Optional[str] = None,
        *,
        run_dir: Optional[str] = None,
        topics: Iterable[str] = ("",),
        curve: Optional[CurveKeys] = None,
        timeout: float = 5.0,
        resend_after: float = 1.0,
    ):
        default_command, default_events = default_endpoints(run_dir)
        self.timeout = timeout
        self.resend_after = resend_after
        self.client_id = secrets.token_hex(8)  # 16 hex digits, as `containment` clients use
        self.heartbeat: Optional[Heartbeat] = None  # the latest one received
        self._last_request_id = 0
        self._backlog: collections.deque[pb.ServerMessage] = collections.deque()  # read by request(), not its own
        self.context = zmq.Context()
        self.sub = self._socket(zmq.SUB, curve)
        self.sub.setsockopt(zmq.RCVHWM, 0)  # keep everything: a dropped event would be a gap
        self.sub.connect(events or default_events)
        for prefix in topics:
            self.sub.setsockopt(zmq.SUBSCRIBE, prefix.encode())
        self.dealer = self._socket(zmq.DEALER, curve)
        self.dealer.connect(command or default_command)

    def _socket(self, kind: int, curve: Optional[CurveKeys]) -> zmq.Socket:
        socket = self.context.socket(kind)
        socket.setsockopt(zmq.LINGER, 0)
        if curve is not None:
            socket.curve_serverkey = curve.server_public
            socket.curve_publickey = curve.public
            socket.curve_secretkey = curve.secret
        return socket

    def close(self) -> None:
        self.sub.close(0)
        self.dealer.close(0)
        self.context.term()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_) -> None:
        self.close()

    # ---- The command socket ----------------------------------------------------------------------------------------

    def send_raw(self, frames: list[bytes]) -> None:
        """Sends frames as they are (to test how the supervisor handles bad input)."""
        self.dealer.send_multipart(frames)

    def _send(self, body: bytes) -> None:
        """Sends one request frame, or nothing while no connection takes it (the supervisor is unreachable, or its
        CURVE handshake failed): a DEALER would block. request() sends it again later."""
        try:
            self.dealer.send(body, zmq.NOBLOCK)
        except zmq.Again:
            pass

    def _read(self) -> pb.ServerMessage:
        frames = self.dealer.recv_multipart()
        if len(frames) != 1:
            raise ValueError(f"a reply is one frame, got {len(frames)}")
        return pb.ServerMessage.FromString(frames[0])

    def receive_reply(self, timeout: Optional[float] = None) -> pb.ServerMessage:
        """The next ServerMessage that answers none of this client's requests: one with request id 0 (a Delivery, a
        `malformed` error), a forwarded inspect, or the answer to a request sent with send_raw()."""
        if self._backlog:
            return self._backlog.popleft()
        if not self.dealer.poll(_milliseconds(self.timeout if timeout is None else timeout)):
            raise RequestTimeout("no reply from the supervisor")
        return self._read()

    def request(self, message: pb.ClientMessage, timeout: Optional[float] = None) -> pb.ServerMessage:
        """Sends a ClientMessage and returns the ServerMessage that answers it, whatever its body. Gives it the next
        request id unless it has one, and this client's id if it carries commands; resends it unchanged every
        `resend_after` seconds until the answer comes (a resend that reaches the supervisor after the first is
        answered again, identically: that late copy is dropped, as are answers to requests that timed out).
        Unasked messages that come first are kept for receive_reply()."""
        if message.request_id == 0:
            message.request_id = self._last_request_id + 1
        self._last_request_id = max(self._last_request_id, message.request_id)
        if message.WhichOneof("body") == "commands" and not message.client_id:
            message.client_id = self.client_id
        body = message.SerializeToString()
        self._send(body)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        resend = time.monotonic() + self.resend_after
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise RequestTimeout(f"no reply to request {message.request_id}")
            if not self.dealer.poll(_milliseconds(min(deadline, resend) - now)):
                if time.monotonic() >= resend:
                    self._send(body)  # the supervisor may have gone away (and come back)
                    resend = time.monotonic() + self.resend_after
                continue
            reply = self._read()
            asked = reply.WhichOneof("body") == "inspect"  # a forwarded inspect asks this client (a host)
            if reply.request_id == message.request_id and not asked:
                return reply
            if reply.request_id == 0 or asked:
                self._backlog.append(reply)

    def submit(self, commands: Iterable[pb.Command], timeout: Optional[float] = None) -> Accepted:
        """Applies commands as one transaction (a Batch). Raises ContainmentError when it is refused."""
        reply = self.request(pb.ClientMessage(commands=pb.Batch(commands=list(commands))), timeout)
        accepted = _body(reply, "accepted")
        first, count = accepted.elided_first_seq, accepted.elided_count
        elided = range(first, first + count) if count else None
        return Accepted(reply.request_id, accepted.command_id, [Event.from_pb(e) for e in accepted.events], elided)

    def snapshot(self, timeout: Optional[float] = None) -> pb.Snapshot:
        """The whole state after event `seq` (docs/PROTOCOL.md, "Snapshots"); mirror.Tree reads it."""
        message = pb.ClientMessage()
        message.snapshot.SetInParent()
        return _body(self.request(message, timeout), "snapshot")

    def inspect(self, controller: str, timeout: Optional[float] = None) -> pb.InspectReply:
        """The callbacks one controller's actor received, as its host answers."""
        return _body(self.request(pb.ClientMessage(inspect=pb.InspectRequest(controller=controller)), timeout),
                     "inspect_reply")

    def methods(self, controller: str, timeout: Optional[float] = None) -> Methods:
        """What `controller` can be called with, as its host registered its kind. Raises ContainmentError
        (unknownController; hostUnavailable while its host has not registered)."""
        reply = self.request(pb.ClientMessage(methods=pb.MethodsRequest(controller=controller)), timeout)
        found = _body(reply, "methods")
        return Methods(
            controller=found.controller,
            kind=found.kind,
            host=found.host,
            verbs=list(found.verbs),
            methods={
                m.name: Method(m.name, [Parameter(p.label, _schema(p.schema)) for p in m.parameters], _schema(m.result))
                for m in found.methods
            },
        )

    def call(self, controller: str, method: str, *args: Any, timeout: Optional[float] = None, **kwargs: Any) -> Any:
        """Calls `controller`'s typed method by its declared name and returns its result, decoded from JSON:

            client.call("board", "insert(child:at:)", child="a", at=0)   # or ("a", 0) in order
            client.call("tally", "add(_:)", 2)

        Arguments in order, or by label (a label that is a Python keyword: **{"in": x}). Issued by the system, ordered
        and journaled as any command. Raises ContainmentError: unknownVerb (no such method), malformed (arguments that
        do not decode as its parameters), methodFailed (the method's own error), hostUnavailable (its host went down,
        or the supervisor restarted before it answered), the rules' codes."""
        labels = labels_of(method)
        values = list(args)
        for label in labels[len(args):]:
            if label not in kwargs:
                raise TypeError(f"{method} lacks its argument {label}")
            values.append(kwargs.pop(label))
        if kwargs:
            raise TypeError(f"{method} has no parameter {sorted(kwargs)[0]}; its labels: {labels}")
        if len(values) != len(labels):
            raise TypeError(f"{method} takes {len(labels)} arguments, got {len(values)}")
        invoke = pb.Invoke(
            controller=controller,
            verb=method,
            arguments=[json.dumps(v, separators=(",", ":")) for v in values],
            call=True,
        )
        reply = self.request(pb.ClientMessage(commands=pb.Batch(commands=[pb.Command(by="system", invoke=invoke)])),
                             timeout)
        accepted = _body(reply, "accepted")
        if not accepted.HasField("result"):
            raise ContainmentError("hostUnavailable", f"the call (command {accepted.command_id}) was journaled, but "
                                   "its result is lost: the supervisor restarted before the method answered",
                                   command_id=accepted.command_id)
        return json.loads(accepted.result)

    # ---- The event socket ------------------------------------------------------------------------------------------

    def next_event(self, timeout: float) -> Optional[tuple[str, Event]]:
        """(topic, Event) of the next published event, or None after `timeout` seconds. Heartbeats (topic
        `heartbeat`, an EventHeartbeat) are not events: the latest is kept in `self.heartbeat`."""
        deadline = time.monotonic() + timeout
        while self.sub.poll(_milliseconds(deadline - time.monotonic())):
            frames = self.sub.recv_multipart()
            if len(frames) != 2:
                raise ValueError(f"an event is two frames, got {len(frames)}")
            if frames[0] == HEARTBEAT_TOPIC:
                self.heartbeat = Heartbeat.parse(frames[1])
                continue
            return frames[0].decode(), Event.parse(frames[1])
        return None

    def events_until(self, done: Callable[[Event], bool], timeout: float = 10.0) -> list[tuple[str, Event]]:
        """(topic, Event) pairs until done(event) is true for one; TimeoutError after `timeout` seconds in all."""
        deadline = time.monotonic() + timeout
        got: list[tuple[str, Event]] = []
        while True:
            item = self.next_event(max(0.0, deadline - time.monotonic()))
            if item is None:
                raise TimeoutError(f"gave up waiting; got {[e.name for _, e in got]}")
            got.append(item)
            if done(item[1]):
                return got

    def settle(self, timeout: float = 10.0) -> list[tuple[str, Event]]:
        """Returns once the subscription delivers (ZeroMQ subscriptions take effect asynchronously), by making the
        supervisor publish: a command the model rejects (destroying a controller that does not exist) publishes a
        ruleViolation. Needs a subscription that takes the runtime category. Returns the probes' events."""
        probe = pb.Command(by="system", destroy=pb.Destroy(id="__python_probe__"))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.submit([probe])
                raise ValueError("destroying a controller that does not exist was accepted")
            except ContainmentError as error:
                if error.code != "unknownController":
                    raise
            item = self.next_event(0.2)
            if item is not None:
                # The probe's violation, and whatever of earlier probes follows it.
                got = [item]
                while (more := self.next_event(0.05)) is not None:
                    got.append(more)
                return got
        raise TimeoutError("the subscription never delivered")
