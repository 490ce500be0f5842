"""A small Containment client in Python, written from docs/PROTOCOL.md alone.

It speaks the wire protocol with pyzmq and the protobuf code protoc generates from proto/containment.proto:

- ``load_bindings(proto_dir, out_dir)`` runs protoc and imports the generated ``containment_pb2`` module;
- ``Client`` holds a SUB on the event socket and a DEALER on the command socket: requests with request ids,
  snapshots, command batches, and the events as they come (topic + Event);
- ``Tree`` is a snapshot with events folded in, checking that sequence numbers follow each other;
- ``Mirror`` is the ZeroMQ guide's Clone pattern: subscribe, snapshot, drop what the snapshot holds, fold the rest,
  and take a new snapshot when events are missing.
"""

from __future__ import annotations

import collections
import importlib.util
import itertools
import os
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

import zmq

CATEGORIES = ("callbacks", "structure", "presentation", "containers", "runtime")


# ---- Generated code --------------------------------------------------------------------------------------------


def load_bindings(proto_dir: str | os.PathLike, out_dir: str | os.PathLike):
    """Generates containment_pb2.py from proto_dir/containment.proto into out_dir and imports it."""
    protoc = shutil.which("protoc")
    if protoc is None:
        raise RuntimeError("protoc is not on PATH (apt: protobuf-compiler)")
    proto_dir, out_dir = Path(proto_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [protoc, f"--proto_path={proto_dir}", f"--python_out={out_dir}", str(proto_dir / "containment.proto")],
        check=True,
    )
    path = out_dir / "containment_pb2.py"
    spec = importlib.util.spec_from_file_location("containment_pb2", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["containment_pb2"] = module
    spec.loader.exec_module(module)
    return module


# ---- Endpoints ---------------------------------------------------------------------------------------------------


def default_run_dir(environ=os.environ) -> str:
    """CONTAINMENT_RUN_DIR, or $TMPDIR/containment-$USER (/tmp when TMPDIR is unset)."""
    run = environ.get("CONTAINMENT_RUN_DIR")
    if run:
        return run
    tmp = environ.get("TMPDIR") or "/tmp"
    user = environ.get("USER") or environ.get("LOGNAME") or str(os.getuid())
    return f"{tmp.rstrip('/') or '/'}/containment-{user}"


def default_endpoints(run_dir: Optional[str] = None) -> tuple[str, str]:
    """(command, events) endpoints of the built-in defaults."""
    run = run_dir or default_run_dir()
    return f"ipc://{run}/command.sock", f"ipc://{run}/events.sock"


def topic_of(event) -> str:
    return f"{category_of(event.name)}/{event.name}/{event.controller}"


def category_of(name: str) -> str:
    """The first part of an event's topic (PROTOCOL.md, Topics)."""
    if name in {
        "loadView", "viewDidLoad", "viewDidUnload", "willMoveToParent", "didMoveToParent", "viewWillAppear",
        "viewDidAppear", "viewWillDisappear", "viewDidDisappear", "viewWillLayoutSubviews", "viewDidLayoutSubviews",
        "didReceiveMemoryWarning", "viewWillTransitionToSize",
    }:
        return "callbacks"
    if name in {"presented", "dismissed"}:
        return "presentation"
    if name in {
        "transitionBegan", "transitionCompleted", "navigationWillShow", "navigationDidShow", "selectionChanged",
        "pagesChanged", "menuVisibilityChanged",
    }:
        return "containers"
    if name in {"ruleViolation", "hostUp", "hostDown", "hostRestarted", "hostFailed"}:
        return "runtime"
    return "structure"


# ---- The client --------------------------------------------------------------------------------------------------


class RequestTimeout(Exception):
    pass


class Client:
    """A SUB on the event socket (subscribed at once) and a DEALER on the command socket."""

    def __init__(self, pb, command: str, events: str, topics: Iterable[str] = ("",), timeout: float = 5.0):
        self.pb = pb
        self.timeout = timeout
        self.context = zmq.Context()
        self.sub = self.context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.RCVHWM, 0)  # keep everything: a dropped event would be a gap
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.connect(events)
        for prefix in topics:
            self.sub.setsockopt(zmq.SUBSCRIBE, prefix.encode())
        self.dealer = self.context.socket(zmq.DEALER)
        self.dealer.setsockopt(zmq.LINGER, 0)
        self.dealer.connect(command)
        self._ids = itertools.count(1)
        # Exactly once (docs/PROTOCOL.md, "Client ids"): commands carry this id, and a request whose reply does not
        # come is sent again, unchanged, every `resend_after` seconds: a resend after a supervisor restart is answered
        # with the first answer, never applied twice.
        self.client_id = uuid.uuid4().hex
        self.resend_after = 1.0
        self._backlog: collections.deque = collections.deque()  # messages a request() read past
        self.heartbeat = None  # the latest EventHeartbeat (sent on the PUB when no event went out for a while)

    def close(self):
        self.sub.close(0)
        self.dealer.close(0)
        self.context.term()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    # Command socket

    def send_raw(self, frames: list[bytes]):
        """Sends frames as they are (for testing the supervisor's handling of bad input)."""
        self.dealer.send_multipart(frames)

    def receive_reply(self, timeout: Optional[float] = None):
        """The next ServerMessage on the DEALER (a reply, a Delivery, a forwarded inspect), or RequestTimeout."""
        if self._backlog:
            return self._backlog.popleft()
        if not self.dealer.poll(int((self.timeout if timeout is None else timeout) * 1000)):
            raise RequestTimeout("no reply from the supervisor")
        frames = self.dealer.recv_multipart()
        if len(frames) != 1:
            raise ValueError(f"a reply is one frame, got {len(frames)}")
        reply = self.pb.ServerMessage()
        reply.ParseFromString(frames[0])
        return reply

    def request(self, message, timeout: Optional[float] = None):
        """Sends a ClientMessage with a fresh request id (unless it has one) and returns the reply echoing it.
        Other messages that come first (a host's Delivery comes before the Accepted of its own command) are kept
        for receive_reply()."""
        if message.request_id == 0:
            message.request_id = next(self._ids)
        if message.WhichOneof("body") == "commands" and not message.client_id:
            message.client_id = self.client_id
        body = message.SerializeToString()
        self.dealer.send(body)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        resend = time.monotonic() + self.resend_after
        skipped = []
        try:
            while True:
                now = time.monotonic()
                if now >= deadline:
                    raise RequestTimeout(f"no reply to request {message.request_id}")
                if not self.dealer.poll(max(0, int((min(deadline, resend) - now) * 1000))):
                    if time.monotonic() >= resend:
                        # The supervisor may have gone away (and come back): the same request again.
                        self.dealer.send(body)
                        resend = time.monotonic() + self.resend_after
                    continue
                frames = self.dealer.recv_multipart()
                if len(frames) != 1:
                    raise ValueError(f"a reply is one frame, got {len(frames)}")
                reply = self.pb.ServerMessage()
                reply.ParseFromString(frames[0])
                if reply.request_id == message.request_id:
                    return reply
                skipped.append(reply)
        finally:
            self._backlog.extend(skipped)

    def snapshot(self):
        message = self.pb.ClientMessage()
        message.snapshot.SetInParent()
        reply = self.request(message)
        if reply.WhichOneof("body") != "snapshot":
            raise RuntimeError(f"a snapshot request was answered with {reply}")
        return reply.snapshot

    def submit(self, commands):
        """Sends commands as one Batch; returns the ServerMessage (body `accepted` or `error`)."""
        message = self.pb.ClientMessage()
        message.commands.commands.extend(commands)
        return self.request(message)

    # Event socket

    def next_event(self, timeout: float):
        """(topic, Event) of the next published event, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            if not self.sub.poll(max(0, int((deadline - time.monotonic()) * 1000))):
                return None
            frames = self.sub.recv_multipart()
            if len(frames) != 2:
                raise ValueError(f"an event is two frames, got {len(frames)}")
            if frames[0] != b"heartbeat":
                break
            self.heartbeat = self.pb.EventHeartbeat.FromString(frames[1])  # the PUB is idle; see recover()
        event = self.pb.Event()
        event.ParseFromString(frames[1])
        return frames[0].decode(), event

    def events_until(self, done, timeout: float = 10.0) -> list:
        """(topic, Event) pairs until done(event) is true for one; fails after `timeout` seconds in all."""
        deadline = time.monotonic() + timeout
        got = []
        while True:
            left = deadline - time.monotonic()
            item = self.next_event(max(0.0, left)) if left > 0 else None
            if item is None:
                raise TimeoutError(f"gave up waiting; got {[e.name for _, e in got]}")
            got.append(item)
            if done(item[1]):
                return got

    def settle(self, timeout: float = 10.0):
        """Returns once the subscription delivers, by making the supervisor publish: a command the model rejects
        (destroying a controller that does not exist) publishes a ruleViolation. Needs a subscription that takes the
        runtime category. Returns the probes' events."""
        probe = self.pb.Command(by="system")
        probe.destroy.id = "__python_probe__"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self.submit([probe])
            assert reply.WhichOneof("body") == "error" and reply.error.code == "unknownController", reply
            item = self.next_event(0.2)
            if item is not None:
                # The probe's violation, and whatever of earlier probes follows it.
                got = [item]
                while (more := self.next_event(0.05)) is not None:
                    got.append(more)
                return got
        raise TimeoutError("the subscription never delivered")


# ---- Folding -----------------------------------------------------------------------------------------------------


@dataclass
class Node:
    id: str
    kind: str
    host: str
    parent: Optional[str] = None
    children: list[str] = field(default_factory=list)
    appearance: str = "disappeared"
    frame: Optional[tuple[float, float, float, float]] = None  # the root view's; None while not loaded


def rect(r) -> tuple[float, float, float, float]:
    return (r.x, r.y, r.width, r.height)


class Gap(Exception):
    def __init__(self, expected: int, got: int):
        super().__init__(f"events {expected}..{got - 1} are missing")
        self.expected, self.got = expected, got


class Restarted(Exception):
    """An event of another epoch: the supervisor restarted since the snapshot."""

    def __init__(self, was: int, now: int):
        super().__init__(f"the supervisor restarted (epoch {was} → {now})")
        self.was, self.now = was, now


class Tree:
    """The state a snapshot describes, kept current by folding the events after it, in seq order."""

    def __init__(self, snapshot):
        self.seq = snapshot.seq
        self.epoch = snapshot.epoch  # which start of the supervisor it describes
        self.nodes: dict[str, Node] = {}
        self.order: list[str] = []
        for c in snapshot.controllers:
            self.nodes[c.id] = Node(
                id=c.id,
                kind=c.kind,
                host=c.host,
                parent=c.parent if c.HasField("parent") else None,
                children=list(c.children),
                appearance=c.appearance,
                frame=rect(c.frame) if c.HasField("frame") else None,
            )
            self.order.append(c.id)
        self.windows = {w.id: (w.root, (w.size.width, w.size.height)) for w in snapshot.windows}
        self.hosts = {h.name: (h.pid, h.up) for h in snapshot.hosts}

    def apply(self, event) -> str:
        """Folds one event: "duplicate" (already in the tree: dropped), "applied", or raises Gap (not applied)."""
        if event.epoch != self.epoch:
            raise Restarted(self.epoch, event.epoch)
        if event.seq <= self.seq:
            return "duplicate"
        if event.seq != self.seq + 1:
            raise Gap(self.seq + 1, event.seq)
        self.seq = event.seq
        cid, name, nodes = event.controller, event.name, self.nodes
        if name == "controllerCreated":
            if cid not in nodes:
                self.order.append(cid)
            nodes[cid] = Node(id=cid, kind=event.kind, host=event.host)
        elif name == "controllerDestroyed":
            nodes.pop(cid, None)
            self.order.remove(cid)
        elif name == "childAdded":
            nodes[cid].parent = event.parent
            nodes[event.parent].children.append(cid)
        elif name == "childRemoved":
            nodes[cid].parent = None
            nodes[event.parent].children.remove(cid)
        elif name == "loadView":
            nodes[cid].frame = (0.0, 0.0, 0.0, 0.0)
        elif name == "viewDidUnload":
            nodes[cid].frame = None
        elif name == "frameChanged" and event.view == cid:
            nodes[cid].frame = rect(event.frame)
        elif name in ("viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"):
            nodes[cid].appearance = {
                "viewWillAppear": "appearing",
                "viewDidAppear": "appeared",
                "viewWillDisappear": "disappearing",
                "viewDidDisappear": "disappeared",
            }[name]
        elif name == "windowAttached":
            self.windows[event.window] = (cid, (event.size.width, event.size.height))
        elif name == "windowResized":
            root, _ = self.windows[event.window]
            self.windows[event.window] = (root, (event.size.width, event.size.height))
        elif name in ("hostUp", "hostRestarted"):
            self.hosts[event.host] = (event.pid, True)
        elif name in ("hostDown", "hostFailed"):
            pid, _ = self.hosts.get(event.host, (0, False))
            self.hosts[event.host] = (pid, False)
        return "applied"


class Mirror:
    """The Clone pattern over a Client subscribed to every topic: a Tree that follows the live events, and recovers by
    a new snapshot when it sees a gap, an event of another epoch (the supervisor restarted), or a heartbeat that says
    so (a restart or events it missed while the PUB was otherwise quiet). Each recovery is noted in one line."""

    def __init__(self, client: Client):
        self.client = client
        self.tree = Tree(client.snapshot())
        self.snapshots = 1
        self.applied: list = []  # (topic, Event) folded in, in order
        self.notices: list[str] = []  # one line per recovery

    def resnapshot(self, why: str):
        self.tree = Tree(self.client.snapshot())
        self.snapshots += 1
        self.notices.append(f"{why}; took a new snapshot at seq {self.tree.seq} (epoch {self.tree.epoch})")

    def pump(self, timeout: float) -> Optional[object]:
        """Waits up to `timeout` for one event and folds it in; returns it, or None (nothing came, or it was already
        in the snapshot). On a gap or a restart, takes a new snapshot and goes on from there."""
        item = self.client.next_event(timeout)
        if item is None:
            beat = self.client.heartbeat
            if beat is not None and (beat.epoch != self.tree.epoch or beat.seq > self.tree.seq):
                self.client.heartbeat = None
                why = (
                    f"the supervisor restarted (epoch {self.tree.epoch} → {beat.epoch})"
                    if beat.epoch != self.tree.epoch
                    else f"events {self.tree.seq + 1}..{beat.seq} were missed"
                )
                self.resnapshot(why)
            return None
        topic, event = item
        try:
            if self.tree.apply(event) == "duplicate":
                return None
        except (Gap, Restarted) as reason:
            self.resnapshot(str(reason))
            try:
                if self.tree.apply(event) == "duplicate":
                    return None
            except Restarted:
                return None  # the old epoch's last events, published before the snapshot's supervisor started
        self.applied.append((topic, event))
        return event

    def until(self, done, timeout: float = 10.0) -> list:
        """Folds events until done(event) for one; returns the events folded in meanwhile."""
        start = len(self.applied)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"gave up waiting; folded {[e.name for _, e in self.applied[start:]]}")
            event = self.pump(left)
            if event is not None and done(event):
                return [e for _, e in self.applied[start:]]


# ---- The journal -------------------------------------------------------------------------------------------------


def _crc32c_table() -> list:
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


def read_journal(pb, directory: str | os.PathLike) -> list:
    """The JournalRecords of a journal directory, from docs/PROTOCOL.md ("The journal"): its segments
    (segment-NNNNNNNN.log) in order, each the magic CNTJRNL1 and then records framed as u32 length, u32 CRC-32C of
    the payload (both little-endian) and the payload. The last segment may end in zeros (its reserved space): they end
    the journal. A torn last record is left out, as the supervisor cuts it."""
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
            record = pb.JournalRecord()
            record.ParseFromString(payload)
            records.append(record)
            offset += 8 + length
    return records
