"""A live copy of the tree: the ZeroMQ guide's Clone pattern (docs/PROTOCOL.md, "Snapshots and the Clone pattern").

``Tree`` is a snapshot with events folded in, in seq order (PROTOCOL.md, "Folding events into a mirror": controllers,
parents and children, appearance, root frames, windows, hosts). ``Mirror`` keeps one current over a Client subscribed
to everything: the subscription comes first, then a snapshot; events the snapshot holds are dropped, the rest folded,
and a gap or a new epoch (a supervisor restart) takes a new snapshot.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from . import containment_pb2 as pb
from .client import Client
from .events import Event, Rect

_APPEARANCE = {
    "viewWillAppear": "appearing",
    "viewDidAppear": "appeared",
    "viewWillDisappear": "disappearing",
    "viewDidDisappear": "disappeared",
}


@dataclass
class Node:
    """A controller as the mirror knows it."""

    id: str
    kind: str
    host: str
    parent: Optional[str] = None
    children: list[str] = field(default_factory=list)
    appearance: str = "disappeared"
    frame: Optional[Rect] = None  # its root view's; None while not loaded
    constraints: dict[str, str] = field(default_factory=dict)  # the constraints it owns: id → expression, in order
    state: dict[str, str] = field(default_factory=dict)  # its own published state (a custom container's selection)


class Gap(Exception):
    """Events are missing between the tree and the event at hand."""

    def __init__(self, expected: int, got: int):
        super().__init__(f"events {expected}..{got - 1} are missing")
        self.expected, self.got = expected, got


class Restarted(Exception):
    """An event of another epoch: the supervisor restarted since the snapshot."""

    def __init__(self, was: int, now: int):
        super().__init__(f"the supervisor restarted (epoch {was} → {now})")
        self.was, self.now = was, now


def _rect(r: pb.Rect) -> Rect:
    return Rect(r.x, r.y, r.width, r.height)


class Tree:
    """The state a snapshot describes, kept current by folding the events after it, in seq order."""

    def __init__(self, snapshot: pb.Snapshot):
        self.seq: int = snapshot.seq
        self.epoch: int = snapshot.epoch  # which start of the supervisor it describes
        self.nodes: dict[str, Node] = {}
        self.order: list[str] = []  # controller ids in creation order
        for c in snapshot.controllers:
            self.nodes[c.id] = Node(
                id=c.id,
                kind=c.kind,
                host=c.host,
                parent=c.parent if c.HasField("parent") else None,
                children=list(c.children),
                appearance=c.appearance,
                frame=_rect(c.frame) if c.HasField("frame") else None,
                constraints={k.id: k.expression for k in c.constraints},
                state={e.key: e.value for e in c.properties.state},
            )
            self.order.append(c.id)
        # window id → (root, (width, height)); host name → (pid, up)
        self.windows = {w.id: (w.root, (w.size.width, w.size.height)) for w in snapshot.windows}
        self.hosts = {h.name: (h.pid, h.up) for h in snapshot.hosts}

    def apply(self, event: Event) -> str:
        """Folds one event: "duplicate" (the tree holds it already: dropped) or "applied". Raises Gap or Restarted
        (not applied) when it does not follow the tree."""
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
            if event.host:
                self.hosts.setdefault(event.host, (0, False))
        elif name == "controllerDestroyed":
            nodes.pop(cid, None)
            self.order.remove(cid)
        elif name == "childAdded":
            nodes[cid].parent = event.parent
            nodes[event.parent].children.append(cid)
        elif name == "childRemoved":
            nodes[cid].parent = None
            nodes[event.parent].children.remove(cid)
        elif name == "pagesChanged":
            nodes[cid].children = list(event.pages)
        elif name == "loadView":
            nodes[cid].frame = Rect(0.0, 0.0, 0.0, 0.0)
        elif name == "viewDidUnload":
            nodes[cid].frame = None
        elif name == "propertiesChanged" and "state" in event.changed:
            # The properties as a dict (protobuf's JSON mapping): the state's entries, an empty value left out.
            entries = (event.properties or {}).get("state", [])
            nodes[cid].state = {e["key"]: e.get("value", "") for e in entries}
        elif name == "constraintAdded":
            nodes[cid].constraints[event.constraint_id] = event.expression
        elif name == "constraintRemoved":
            nodes[cid].constraints.pop(event.constraint_id, None)
        elif name == "frameChanged" and event.view == cid:
            nodes[cid].frame = event.frame
        elif name in _APPEARANCE:
            nodes[cid].appearance = _APPEARANCE[name]
        elif name == "windowAttached":
            self.windows[event.window] = (cid, tuple(event.size))
        elif name == "windowResized":
            root, _ = self.windows[event.window]
            self.windows[event.window] = (root, tuple(event.size))
        elif name in ("hostUp", "hostRestarted"):
            self.hosts[event.host] = (event.pid, True)
        elif name in ("hostDown", "hostFailed"):
            pid, _ = self.hosts.get(event.host, (0, False))
            self.hosts[event.host] = (pid, False)
        return "applied"


class Mirror:
    """A Tree that follows the live events of a Client subscribed to every topic (create the Client first: its
    subscription must be in place before the snapshot). It recovers by a new snapshot when it sees a gap, an event of
    another epoch, or a heartbeat saying it missed events or the supervisor restarted; each recovery is noted in one
    line in `notices`."""

    def __init__(self, client: Client):
        self.client = client
        self.tree = Tree(client.snapshot())
        self.snapshots = 1
        self.applied: list[tuple[str, Event]] = []  # (topic, Event) folded in, in order
        self.notices: list[str] = []

    def resnapshot(self, why: str) -> None:
        self.tree = Tree(self.client.snapshot())
        self.snapshots += 1
        self.notices.append(f"{why}; took a new snapshot at seq {self.tree.seq} (epoch {self.tree.epoch})")

    def pump(self, timeout: float) -> Optional[Event]:
        """Waits up to `timeout` for one event and folds it in; returns it, or None (nothing came, or the tree held it
        already). On a gap or a restart, takes a new snapshot and goes on from there."""
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

    def events(self, idle: Optional[float] = None) -> Iterator[Event]:
        """Each event as it is folded in; ends once none came for `idle` seconds (None: never)."""
        quiet_since = time.monotonic()
        while idle is None or time.monotonic() - quiet_since < idle:
            event = self.pump(0.1 if idle is None else max(0.0, idle - (time.monotonic() - quiet_since)))
            if event is not None:
                quiet_since = time.monotonic()
                yield event

    def until(self, done: Callable[[Event], bool], timeout: float = 10.0) -> list[Event]:
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
