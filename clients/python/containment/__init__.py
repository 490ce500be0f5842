"""A Python client for a Containment runtime, written from docs/PROTOCOL.md.

- ``Client``: the command socket (request ids, client id and resends: exactly once; ContainmentError on a refusal)
  and the event socket (typed ``Event``s; heartbeats kept apart);
- ``Mirror``: the tree kept current by the Clone pattern (subscribe, snapshot, fold, re-snapshot on a gap or restart);
- ``Client.call`` and ``Client.methods``: controllers' typed methods by declared name, with their JSON Schemas;
- ``command``: builds a Command; ``read_journal``: the supervisor's journal;
- ``containment_pb2``: the protobuf messages of proto/containment.proto, for everything else.
"""

from . import containment_pb2
from .client import Accepted, Client, Method, Methods, Parameter
from .commands import command
from .endpoints import CurveKeys, default_endpoints, default_run_dir
from .errors import ContainmentError, RequestTimeout
from .events import AppearanceFlags, Category, Event, Heartbeat, Point, Rect, Size, category_of, topic_of
from .journal import read_journal
from .mirror import Gap, Mirror, Node, Restarted, Tree

__all__ = [
    "Accepted",
    "AppearanceFlags",
    "Category",
    "Client",
    "ContainmentError",
    "CurveKeys",
    "Event",
    "Gap",
    "Heartbeat",
    "Method",
    "Methods",
    "Mirror",
    "Node",
    "Parameter",
    "Point",
    "Rect",
    "RequestTimeout",
    "Restarted",
    "Size",
    "Tree",
    "category_of",
    "command",
    "containment_pb2",
    "default_endpoints",
    "default_run_dir",
    "read_journal",
    "topic_of",
]
