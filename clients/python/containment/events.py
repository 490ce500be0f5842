"""Typed events: what the supervisor publishes, without protobuf types (docs/PROTOCOL.md, "Events").

``Event.from_pb`` reads the fields PROTOCOL.md lists for the event's name; the others stay None, so a field that is
None was not part of that event (while 0, False or "" are values it carried). ``Event.raw`` keeps the message.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple, Optional

from google.protobuf import json_format

from . import containment_pb2 as pb


class Category(str, enum.Enum):
    """The first part of an event's topic."""

    CALLBACKS = "callbacks"
    STRUCTURE = "structure"
    PRESENTATION = "presentation"
    MESSAGES = "messages"
    INPUT = "input"
    CONTAINERS = "containers"
    RUNTIME = "runtime"


_CATEGORY_OF = {
    name: category
    for category, names in {
        Category.CALLBACKS: (
            "loadView viewDidLoad viewDidUnload willMoveToParent didMoveToParent viewWillAppear viewDidAppear "
            "viewWillDisappear viewDidDisappear viewWillLayoutSubviews viewDidLayoutSubviews didReceiveMemoryWarning "
            "viewWillTransitionToSize messageReceived setEditing inputReceived actionReceived verbInvoked "
            "delegateCallback"
        ),
        Category.PRESENTATION: "presented dismissed",
        Category.MESSAGES: "messageSent",
        Category.INPUT: "inputDelivered actionDelivered",
        Category.CONTAINERS: (
            "transitionBegan transitionCompleted navigationWillShow navigationDidShow selectionChanged pagesChanged "
            "menuVisibilityChanged"
        ),
        Category.RUNTIME: "ruleViolation answerTimedOut hostUp hostDown hostRestarted hostFailed",
    }.items()
    for name in names.split()
}


def category_of(name: str) -> Category:
    """The category of an event name; `structure` for any name not listed elsewhere (PROTOCOL.md, Topics)."""
    return _CATEGORY_OF.get(name, Category.STRUCTURE)


def topic_of(event: "Event | pb.Event") -> str:
    """The topic an event is published under: CATEGORY/NAME/CONTROLLER."""
    return f"{category_of(event.name).value}/{event.name}/{event.controller}"


class Rect(NamedTuple):
    x: float
    y: float
    width: float
    height: float


class Size(NamedTuple):
    width: float
    height: float


class Point(NamedTuple):
    x: float
    y: float


class AppearanceFlags(NamedTuple):
    animated: bool
    moving_to_parent: bool
    moving_from_parent: bool
    being_presented: bool
    being_dismissed: bool


# The fields of each event beyond seq, epoch, command_id, time_unix_nanos, name and controller (PROTOCOL.md's table).
_PRESENTATION = ("presenter", "context", "style", "transition_style", "hides_context", "anchor")
_FIELDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("willMoveToParent", "didMoveToParent", "childAdded", "childRemoved"), ("parent",)),
    **dict.fromkeys(("viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"), ("flags",)),
    "viewWillTransitionToSize": ("size",),
    "controllerCreated": ("kind", "host"),
    "viewInserted": ("view", "superview", "index"),
    "viewRemoved": ("view", "superview"),
    "frameChanged": ("view", "frame", "by"),
    "alphaChanged": ("view", "alpha", "by"),
    "hiddenChanged": ("view", "hidden", "by"),
    "constraintAdded": ("constraint_id", "expression"),
    "constraintRemoved": ("constraint_id",),
    **dict.fromkeys(("windowAttached", "windowResized"), ("window", "size")),
    "orientationChanged": ("window", "orientation"),
    **dict.fromkeys(("transitionBegan", "transitionCompleted"), ("from_", "to")),
    **dict.fromkeys(("presented", "dismissed"), _PRESENTATION),
    **dict.fromkeys(("navigationWillShow", "navigationDidShow"), ("child", "requested_by")),
    "selectionChanged": ("child", "index", "requested_by"),
    "pagesChanged": ("pages", "direction", "requested_by"),
    "menuVisibilityChanged": ("visible",),
    "propertiesChanged": ("changed", "properties"),
    "setEditing": ("editing", "animated"),
    "editingChanged": ("editing",),
    "inputDelivered": ("window", "point", "kind", "view", "chain"),
    "inputReceived": ("kind", "point", "view"),
    "actionDelivered": ("from_", "message_name", "chain"),
    "actionReceived": ("from_", "message_name", "payload"),
    "verbInvoked": ("message_name", "arguments", "by"),
    "delegateCallback": ("from_", "message_name", "child", "animated"),
    "messageSent": ("from_", "to", "message_name", "payload_size"),
    "messageReceived": ("from_", "message_name", "payload"),
    "ruleViolation": ("command", "by", "code", "message"),
    "answerTimedOut": ("question",),
    **dict.fromkeys(("hostUp", "hostRestarted"), ("host", "pid")),
    **dict.fromkeys(("hostDown", "hostFailed"), ("host", "reason")),
}


def _value(message: pb.Event, name: str) -> Any:
    """One field of an Event, converted: None for an optional field that is absent."""
    proto_name = "from" if name == "from_" else name
    if name in ("parent", "index") and not message.HasField(name):
        return None
    value = getattr(message, proto_name)
    if name == "frame":
        return Rect(value.x, value.y, value.width, value.height)
    if name == "size":
        return Size(value.width, value.height)
    if name == "point":
        return Point(value.x, value.y)
    if name == "flags":
        return AppearanceFlags(
            value.animated, value.moving_to_parent, value.moving_from_parent, value.being_presented,
            value.being_dismissed,
        )
    if name == "properties":
        return json_format.MessageToDict(value, preserving_proto_field_name=True)
    if name in ("pages", "changed", "chain", "arguments"):
        return list(value)
    return value


@dataclass(frozen=True, repr=False)
class Event:
    """One published event. Fields after `controller` are None unless the event's name carries them."""

    name: str
    seq: int
    epoch: int
    command_id: int
    time_unix_nanos: int
    controller: str
    parent: Optional[str] = None
    flags: Optional[AppearanceFlags] = None
    size: Optional[Size] = None
    kind: Optional[str] = None
    host: Optional[str] = None
    view: Optional[str] = None
    superview: Optional[str] = None
    index: Optional[int] = None
    frame: Optional[Rect] = None
    by: Optional[str] = None
    alpha: Optional[float] = None
    hidden: Optional[bool] = None
    window: Optional[str] = None
    orientation: Optional[str] = None
    from_: Optional[str] = None
    to: Optional[str] = None
    presenter: Optional[str] = None
    context: Optional[str] = None
    style: Optional[str] = None
    transition_style: Optional[str] = None
    hides_context: Optional[bool] = None
    anchor: Optional[str] = None
    child: Optional[str] = None
    requested_by: Optional[str] = None  # who asked a container to switch (SPEC §15)
    question: Optional[str] = None  # answerTimedOut: the question not answered in time (SPEC §15)
    pages: Optional[list[str]] = None
    direction: Optional[str] = None
    visible: Optional[bool] = None
    changed: Optional[list[str]] = None
    properties: Optional[dict[str, Any]] = None
    editing: Optional[bool] = None
    animated: Optional[bool] = None
    point: Optional[Point] = None
    chain: Optional[list[str]] = None
    message_name: Optional[str] = None
    payload: Optional[bytes] = None
    payload_size: Optional[int] = None
    arguments: Optional[list[str]] = None
    pid: Optional[int] = None
    reason: Optional[str] = None
    command: Optional[str] = None
    code: Optional[str] = None
    message: Optional[str] = None
    constraint_id: Optional[str] = None  # constraintAdded, constraintRemoved: the owner's id of it (SPEC §16)
    expression: Optional[str] = None  # constraintAdded: the constraint as SPEC §16 spells it
    raw: Optional[pb.Event] = field(default=None, repr=False, compare=False)  # the protobuf message

    @classmethod
    def from_pb(cls, message: pb.Event) -> "Event":
        """The typed form of a protobuf Event."""
        return cls(
            name=message.name,
            seq=message.seq,
            epoch=message.epoch,
            command_id=message.command_id,
            time_unix_nanos=message.time_unix_nanos,
            controller=message.controller,
            raw=message,
            **{name: _value(message, name) for name in _FIELDS.get(message.name, ())},
        )

    @classmethod
    def parse(cls, data: bytes) -> "Event":
        """An Event from the bytes of its frame."""
        return cls.from_pb(pb.Event.FromString(data))

    def __repr__(self) -> str:
        carried = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if f.repr and f.default is None and getattr(self, f.name) is not None  # the fields this event carries
        )
        head = f"Event({self.name} seq={self.seq} epoch={self.epoch} {self.controller!r}"
        return f"{head}: {carried})" if carried else f"{head})"

    @property
    def category(self) -> Category:
        return category_of(self.name)

    @property
    def topic(self) -> str:
        return topic_of(self)


@dataclass(frozen=True)
class Heartbeat:
    """What the supervisor publishes under the topic `heartbeat` when no event went out for a while."""

    epoch: int
    seq: int  # the latest published event's seq
    time_unix_nanos: int

    @classmethod
    def parse(cls, data: bytes) -> "Heartbeat":
        beat = pb.EventHeartbeat.FromString(data)
        return cls(epoch=beat.epoch, seq=beat.seq, time_unix_nanos=beat.time_unix_nanos)
