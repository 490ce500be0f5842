"""The protocol, from the installed `containment` package, against a real runtime (scripts/up.sh, topology.yaml).

Run with scripts/test-python-client.sh (it installs clients/python and pytest into a virtualenv). The `containment`
binary is CONTAINMENT_BIN, or the one `swift build --show-bin-path` names.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
import zmq

from containment import ContainmentError, Event, Mirror, Tree, category_of, command, read_journal, topic_of
from containment import containment_pb2 as pb
from support import (CONTROLLERS, HOSTS, REPO, TOPOLOGY, assert_consecutive, assert_same_tree, create_controllers,
                     names, run_runtime)

# `ctl embed menu third`: third is already menu's child in the topology, so addChild changes nothing (no
# willMoveToParent, no childAdded); the view loads, gets its frame, goes in, appears, then didMove.
EMBED_EXISTING_CHILD = [
    "loadView",
    "viewDidLoad",
    "frameChanged",
    "viewWillLayoutSubviews",
    "viewDidLayoutSubviews",
    "viewWillAppear",
    "viewInserted",
    "viewDidAppear",
    "didMoveToParent",
]
# `ctl embed menu py` for a controller with no parent yet: the whole displayContentController listing.
EMBED_NEW_CHILD = ["willMoveToParent", "childAdded"] + EMBED_EXISTING_CHILD


# ---- Tests -------------------------------------------------------------------------------------------------------


def test_snapshot_lists_the_topology(runtime):
    client = runtime.client()
    snapshot = client.snapshot()
    assert snapshot.seq > 0
    assert [c.id for c in snapshot.controllers] == CONTROLLERS  # creation order
    by_id = {c.id: c for c in snapshot.controllers}
    assert by_id["menu"].kind == "content" and by_id["first"].kind == "content"
    for c in CONTROLLERS:
        assert by_id[c].host == f"{c}-host"
    assert not by_id["menu"].HasField("parent")
    assert list(by_id["menu"].children) == ["first", "second", "third"]
    assert all(by_id[c].parent == "menu" for c in ["first", "second", "third"])
    assert by_id["menu"].appearance == "appeared" and by_id["first"].appearance == "appeared"
    assert by_id["second"].appearance == "disappeared" and not by_id["second"].view_loaded
    assert not by_id["second"].HasField("frame")
    assert by_id["first"].properties.title == "First"
    # The remote pyhost is known (the topology names it) and down until test_host_exchange plays it.
    assert [(h.name, h.up) for h in snapshot.hosts] == sorted([(h, True) for h in HOSTS] + [("pyhost", False)])
    assert all(h.pid > 0 for h in snapshot.hosts if h.name != "pyhost")
    assert [(w.id, w.root, w.size.width, w.size.height) for w in snapshot.windows] == [("main", "menu", 1024, 768)]
    views = {v.id: v for v in snapshot.views}
    assert views["first"].superview == "menu" and "first" in views["menu"].subviews

    # `containment tree --json` reads the same snapshot.
    tree = runtime.containment("tree", "--json")
    assert tree.returncode == 0, tree.stderr
    shown = json.loads(tree.stdout)
    assert shown["seq"] == snapshot.seq
    assert [c["id"] for c in shown["controllers"]] == CONTROLLERS


def test_embed_events_follow_the_snapshot(runtime):
    client = runtime.client()
    # A second subscriber, to two prefixes: runtime/ lets it settle (see Client.settle).
    callbacks_only = runtime.client(topics=("callbacks/", "runtime/"))
    callbacks_only.settle()
    client.settle()
    mirror = Mirror(client)
    start = mirror.tree.seq

    done = runtime.ctl("embed", "menu", "third", "--frame", "0,0,100,100", "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    events = mirror.until(lambda e: e.name == "didMoveToParent")

    assert names(events) == EMBED_EXISTING_CHILD
    assert_consecutive(events, after=start)
    assert mirror.snapshots == 1  # nothing was missed
    assert all(e.controller == "third" for e in events)
    assert len({e.command_id for e in events}) == 1 and events[0].command_id > 0
    topics = [t for t, _ in mirror.applied]
    assert topics[0] == "callbacks/loadView/third"
    assert topics[2] == "structure/frameChanged/third"
    assert topics == [topic_of(e) for e in events]
    framed = events[2]
    assert (framed.view, framed.by) == ("third", "menu")
    assert (framed.frame.x, framed.frame.y, framed.frame.width, framed.frame.height) == (0, 0, 100, 100)
    inserted = events[6]
    assert (inserted.view, inserted.superview) == ("third", "menu")
    appeared = events[7]
    assert appeared.flags.moving_to_parent and not appeared.flags.animated
    assert events[-1].parent == "menu"  # present: None when absent

    # The fold agrees with a new snapshot.
    assert mirror.tree.nodes["third"].appearance == "appeared"
    assert mirror.tree.nodes["third"].frame == (0, 0, 100, 100)
    assert_same_tree(mirror.tree, Tree(client.snapshot()))

    # The subscriber to the callbacks/ and runtime/ prefixes gets the callbacks only (of this command), in order.
    got = callbacks_only.events_until(lambda e: e.name == "didMoveToParent")
    got = [(t, e) for t, e in got if e.seq > start]
    assert names(e for _, e in got) == [n for n in EMBED_EXISTING_CHILD if category_of(n) == "callbacks"]
    assert all(t.startswith("callbacks/") for t, _ in got)
    assert [e.seq for _, e in got] == [e.seq for e in events if category_of(e.name) == "callbacks"]


def test_rejected_set_frame_is_a_rule_violation(runtime):
    client = runtime.client()
    client.settle()
    mirror = Mirror(client)
    start = mirror.tree.seq

    rejected = runtime.ctl("set-frame", "second", "0,0,10,10", "--by", "second")
    assert rejected.returncode == 1
    assert rejected.stderr.startswith("frameAuthority: ")
    (violation,) = mirror.until(lambda e: e.name == "ruleViolation")
    assert violation.seq == start + 1
    assert violation.code == "frameAuthority"
    assert violation.command == "set-frame"
    assert violation.by == "second" and violation.controller == "second"
    assert violation.message
    assert mirror.applied[-1][0] == "runtime/ruleViolation/second"

    # The same from Python: an Error reply, and one more ruleViolation with the next seq.
    with pytest.raises(ContainmentError) as refused:
        client.submit([command("second", set_frame=dict(view="second", frame=dict(width=10, height=10)))])
    assert (refused.value.code, refused.value.index) == ("frameAuthority", 0)
    (again,) = mirror.until(lambda e: e.name == "ruleViolation")
    assert again.seq == start + 2 and again.code == "frameAuthority"
    assert again.command_id > violation.command_id
    assert mirror.snapshots == 1


def test_malformed_frames_get_an_error_and_the_socket_still_works(runtime):
    client = runtime.client()
    # Not protobuf: field 13 with wire type 6 does not exist.
    client.send_raw([b"not a protobuf message \xff\xff"])
    reply = client.receive_reply()
    assert reply.WhichOneof("body") == "error"
    assert reply.error.code == "malformed"
    assert reply.request_id == 0

    # Two frames: one request is exactly one frame.
    client.send_raw([pb.ClientMessage(request_id=9).SerializeToString(), b"extra"])
    reply = client.receive_reply()
    assert (reply.request_id, reply.error.code) == (0, "malformed")

    # A message without a body: malformed, with its request id echoed.
    client.send_raw([pb.ClientMessage(request_id=11).SerializeToString()])
    reply = client.receive_reply()
    assert (reply.request_id, reply.error.code) == (11, "malformed")

    # A valid snapshot request on the same socket.
    message = pb.ClientMessage(request_id=12)
    message.snapshot.SetInParent()
    reply = client.request(message)
    assert reply.request_id == 12
    assert reply.WhichOneof("body") == "snapshot"
    assert [c.id for c in reply.snapshot.controllers] == CONTROLLERS


def test_batch_from_python_creates_a_controller(runtime):
    client = runtime.client()
    client.settle()
    mirror = Mirror(client)
    start = mirror.tree.seq

    message = pb.ClientMessage(request_id=42)
    message.commands.commands.append(command("system", create=dict(id="py", kind="content")))
    reply = client.request(message)
    assert reply.request_id == 42
    assert reply.WhichOneof("body") == "accepted", reply
    (created,) = map(Event.from_pb, reply.accepted.events)
    assert (created.name, created.controller, created.kind) == ("controllerCreated", "py", "content")
    assert created.host in HOSTS
    assert created.seq == start + 1 and created.command_id == reply.accepted.command_id

    (published,) = mirror.until(lambda e: e.name == "controllerCreated")
    assert published == created
    assert mirror.applied[-1][0] == "structure/controllerCreated/py"

    snapshot = client.snapshot()
    py = [c for c in snapshot.controllers if c.id == "py"]
    assert len(py) == 1 and py[0].kind == "content" and py[0].host == created.host
    assert not py[0].HasField("parent") and py[0].appearance == "disappeared"
    assert [c.id for c in snapshot.controllers] == CONTROLLERS + ["py"]
    assert_same_tree(mirror.tree, Tree(snapshot))

    # A batch is one transaction: the failing command's index, nothing applied, one ruleViolation.
    with pytest.raises(ContainmentError) as refused:
        client.submit(
            [
                command("system", create=dict(id="py2", kind="content")),
                command("system", create=dict(id="first", kind="content")),
            ]
        )
    assert (refused.value.code, refused.value.index) == ("duplicateID", 1)
    (violation,) = mirror.until(lambda e: e.name == "ruleViolation")
    assert (violation.command, violation.by, violation.controller) == ("create", "system", "first")
    assert mirror.applied[-1][0] == "runtime/ruleViolation/first"
    assert "py2" not in [c.id for c in client.snapshot().controllers]

    # Embedding a controller that has no parent yet: the whole displayContentController listing.
    done = runtime.ctl("embed", "menu", "py", "--frame", "0,0,50,50", "--quiet")
    assert done.returncode == 0, done.stderr
    events = mirror.until(lambda e: e.name == "didMoveToParent")
    assert names(events) == EMBED_NEW_CHILD
    assert_consecutive(events, after=violation.seq)
    assert events[0].parent == "menu"  # present: None when absent
    assert events[1].parent == "menu"
    assert mirror.snapshots == 1
    assert_same_tree(mirror.tree, Tree(client.snapshot()))

    # Its own published state (what a custom container shows of itself), set whole by itself: the mirror follows.
    done = runtime.ctl("set-properties", "py", "--state", "selection=2", "--state", "mode=", "--by", "py", "--quiet")
    assert done.returncode == 0, done.stderr
    (changed,) = mirror.until(lambda e: e.name == "propertiesChanged")
    assert changed.changed == ["state"]
    assert mirror.tree.nodes["py"].state == {"selection": "2", "mode": ""}
    assert_same_tree(mirror.tree, Tree(client.snapshot()))


def test_journal_records_the_accepted_commands(runtime):
    client = runtime.client()
    client.settle()  # rejected probes: a command id each, a record of the rejection
    accepted = client.submit([command("", create=dict(id="journaled", kind="content"))])
    snapshot = client.snapshot()

    everything = read_journal(Path(runtime.run_dir, "journal"))
    assert everything[0].epoch == 1, "a supervisor start is journaled first"
    seqs = [r for r in everything if r.event_count]
    for before, after in zip(seqs, seqs[1:]):
        assert after.first_seq == before.first_seq + before.event_count, "every seq is accounted for"
    assert any(r.HasField("rejection") for r in everything), "the rejected probes are journaled"
    records = [r for r in everything if r.commands]
    assert records, "the topology's commands are journaled too"
    ids = [r.command_id for r in records]
    assert ids == sorted(set(ids)) and ids[0] == 1
    last = records[-1]
    assert last.command_id == accepted.command_id
    assert last.first_seq == accepted.events[0].seq and last.event_count == len(accepted.events)
    (journaled,) = last.commands
    assert journaled.create.id == "journaled"
    assert journaled.by == ""  # empty: the natural party
    assert journaled.create.host == accepted.events[0].host != ""  # as applied: the host is named
    assert last.first_seq + last.event_count - 1 == snapshot.seq


def test_host_exchange(runtime):
    watcher = runtime.client()
    watcher.settle()
    mirror = Mirror(watcher)
    host = runtime.client(topics=())  # its DEALER plays a host
    other = runtime.client(topics=())

    def hello(version=1, request_id=100, pid=os.getpid()):
        message = pb.ClientMessage(request_id=request_id)
        message.hello.host, message.hello.pid, message.hello.protocol_version = "pyhost", pid, version
        return host.request(message)

    def beat():
        message = pb.ClientMessage()
        message.heartbeat.host = "pyhost"
        host.dealer.send(message.SerializeToString())  # no reply

    refused = hello(version=99, request_id=99)
    assert (refused.request_id, refused.error.code) == (99, "malformed")

    welcome = hello()
    assert welcome.request_id == 100 and welcome.WhichOneof("body") == "welcome"
    assert len(welcome.welcome.controllers) == 0 and welcome.welcome.heartbeat_interval_ms > 0
    (up,) = mirror.until(lambda e: e.name == "hostUp")
    assert (up.host, up.pid, up.controller, up.command_id) == ("pyhost", os.getpid(), "", 0)
    assert mirror.applied[-1][0] == "runtime/hostUp/"

    # A controller created on it: a Delivery (request_id 0) with controllerCreated.
    beat()
    other.submit([command("system", create=dict(id="pc", kind="content", host="pyhost"))])  # accepted, or raises
    delivery = host.receive_reply()
    assert delivery.request_id == 0 and delivery.WhichOneof("body") == "delivery"
    assert [(e.name, e.controller, e.host) for e in delivery.delivery.events] == [
        ("controllerCreated", "pc", "pyhost")
    ]

    # The host acts as the controller it runs; its callbacks come back as a Delivery.
    beat()
    accepted = host.submit([command("pc", load_view=dict(controller="pc"))])
    delivery = host.receive_reply()
    assert names(delivery.delivery.events) == ["loadView", "viewDidLoad"]
    assert [e.seq for e in delivery.delivery.events] == [e.seq for e in accepted.events]
    # ... and only as those.
    with pytest.raises(ContainmentError) as refused:
        host.submit([command("menu", load_view=dict(controller="second"))])
    assert (refused.value.code, refused.value.index) == ("unauthorized", 0)

    # An inspect of pc is forwarded to this host; its answer is relayed with the client's request id.
    beat()
    ask = pb.ClientMessage(request_id=77)
    ask.inspect.controller = "pc"
    other.dealer.send(ask.SerializeToString())
    forwarded = host.receive_reply()
    assert forwarded.WhichOneof("body") == "inspect" and forwarded.inspect.controller == "pc"
    answer = pb.ClientMessage(request_id=forwarded.request_id)
    answer.inspect_reply.controller, answer.inspect_reply.host = "pc", "pyhost"
    answer.inspect_reply.callbacks.extend(delivery.delivery.events)
    host.dealer.send(answer.SerializeToString())
    relayed = other.receive_reply()
    assert relayed.request_id == 77 and relayed.WhichOneof("body") == "inspect_reply"
    assert names(relayed.inspect_reply.callbacks) == ["loadView", "viewDidLoad"]

    # An inspect of a controller a real host runs.
    inspected = other.inspect("first")
    assert inspected.host == "first-host"
    assert {"loadView", "viewDidLoad", "viewWillAppear", "viewDidAppear", "didMoveToParent"} <= set(
        names(inspected.callbacks)
    )

    # Goodbye: hostDown. Hello again from the same process: hostUp; from a new one (another pid): hostRestarted.
    bye = pb.ClientMessage()
    bye.goodbye.host = "pyhost"
    host.dealer.send(bye.SerializeToString())
    (down,) = [e for e in mirror.until(lambda e: e.name == "hostDown") if e.name == "hostDown"]
    assert down.host == "pyhost"
    assert hello(request_id=101).WhichOneof("body") == "welcome"
    again = mirror.until(lambda e: e.name in ("hostUp", "hostRestarted"))[-1]
    assert (again.name, again.host, again.pid) == ("hostUp", "pyhost", os.getpid())
    host.dealer.send(bye.SerializeToString())
    mirror.until(lambda e: e.name == "hostDown")
    assert hello(request_id=102, pid=os.getpid() + 1).WhichOneof("body") == "welcome"
    restarted = mirror.until(lambda e: e.name in ("hostUp", "hostRestarted"))[-1]
    assert (restarted.name, restarted.host, restarted.pid) == ("hostRestarted", "pyhost", os.getpid() + 1)
    host.dealer.send(bye.SerializeToString())
    mirror.until(lambda e: e.name == "hostDown")
    assert mirror.snapshots == 1
    assert_same_tree(mirror.tree, Tree(watcher.snapshot()))


def test_a_gap_takes_a_new_snapshot(runtime):
    # Subscribed to callbacks/ and runtime/ only, the mirror misses the structure events: the first one missing
    # shows as a gap, and the mirror takes a new snapshot (the Clone pattern's recovery) instead of folding past it.
    client = runtime.client(topics=("callbacks/", "runtime/"))
    client.settle()
    mirror = Mirror(client)
    start = mirror.tree.seq
    done = runtime.ctl("embed", "menu", "third", "--frame", "0,0,100,100", "--quiet")
    assert done.returncode == 0, done.stderr
    # loadView and viewDidLoad follow the snapshot; frameChanged (structure) is missing, so viewWillLayoutSubviews
    # leaves a gap: the new snapshot holds the whole command, and the rest of its callbacks are duplicates.
    deadline = time.monotonic() + 10
    while mirror.snapshots < 2 or mirror.tree.seq < start + len(EMBED_EXISTING_CHILD):
        assert time.monotonic() < deadline, f"folded {names(e for _, e in mirror.applied)}"
        mirror.pump(0.2)
    assert names(e for _, e in mirror.applied) == ["loadView", "viewDidLoad"]
    assert mirror.snapshots == 2
    assert_same_tree(mirror.tree, Tree(client.snapshot()))


def test_a_supervisor_restart_is_recovered_by_snapshot_and_a_resend(runtime):
    # SPEC §14 from a client written from docs/PROTOCOL.md: kill -9 the supervisor, send a command while it is down
    # (the request is resent, unchanged, until the restarted supervisor answers it), and the mirror notices the new
    # epoch and takes a new snapshot, saying so in one line; it then equals a fresh snapshot.
    client = runtime.client()
    client.settle()
    mirror = Mirror(client)
    epoch = mirror.tree.epoch
    assert epoch >= 1
    pid = int(Path(runtime.run_dir, "supervisor.pid").read_text().strip())
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    up = subprocess.Popen(
        ["bash", "scripts/up.sh", TOPOLOGY], cwd=REPO, env=runtime.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        # On a host the topology names: a create without one goes only to a host that is up, and the hosts register
        # again only once the restarted supervisor serves (until then it would be refused hostUnavailable).
        create = command("system", create=dict(id="after_restart", kind="content", host="first-host"))
        reply = client.request(pb.ClientMessage(commands=pb.Batch(commands=[create])), timeout=60)
        assert reply.WhichOneof("body") == "accepted", reply
        [created] = [e for e in reply.accepted.events if e.name == "controllerCreated"]
        assert created.epoch == epoch + 1
    finally:
        out, err = up.communicate(timeout=180)
    assert up.returncode == 0, f"up.sh: {out.decode()}\n{err.decode()}"
    deadline = time.monotonic() + 30
    while mirror.tree.epoch != epoch + 1 or mirror.tree.seq < created.seq:
        assert time.monotonic() < deadline, f"the mirror did not recover: {mirror.notices}"
        mirror.pump(0.2)
    assert mirror.tree.epoch == epoch + 1
    assert "after_restart" in mirror.tree.nodes
    assert any(f"the supervisor restarted (epoch {epoch} → {epoch + 1})" in n for n in mirror.notices), mirror.notices
    assert_same_tree(mirror.tree, Tree(client.snapshot()))
    # The same request again (what a client does when the reply was lost): the first answer, not applied twice.
    again = pb.ClientMessage(commands=pb.Batch(commands=[create]))
    again.request_id = reply.request_id
    second = client.request(again)
    assert second.SerializeToString() == reply.SerializeToString()


def test_a_client_that_does_not_read_is_refused_snapshots_then_answered_in_order(containment_bin, tmp_path):
    """docs/OPERATIONS.md, "What a client that does not read its replies may cost": past 32 messages libzmq holds for
    a connection, its replies wait in the supervisor within replyQueueBytes; past half of that, the snapshots it asks
    for are refused `limitExceeded` before they are built. Reading at last, it gets every answer, in order."""
    config = tmp_path / "runtime.yaml"
    text = (REPO / "Config" / "runtime.yaml").read_text()
    assert "replyQueueBytes: 4194304" in text
    config.write_text(text.replace("replyQueueBytes: 4194304", "replyQueueBytes: 1048576"))
    fixture = run_runtime(containment_bin, config=str(config))
    runtime = next(fixture)
    try:
        client = runtime.client(topics=())
        create_controllers(client, 5_000)
        # About 220 KB a snapshot: the 32 messages libzmq holds and the few the reader's own socket takes are far
        # from 300 of them, so half the budget (512 KiB) waits in the supervisor whatever the timing.
        assert len(client.snapshot().SerializeToString()) > 200_000
        reader = zmq.Context.instance().socket(zmq.DEALER)
        reader.setsockopt(zmq.LINGER, 0)
        reader.setsockopt(zmq.RCVHWM, 1)
        reader.setsockopt(zmq.RCVTIMEO, 30_000)
        reader.connect(runtime.command)
        try:
            for request in range(1, 301):
                reader.send(pb.ClientMessage(request_id=request, snapshot=pb.SnapshotRequest()).SerializeToString())
            replies = [pb.ServerMessage.FromString(reader.recv()) for _ in range(300)]
            assert [r.request_id for r in replies] == list(range(1, 301))
            kinds = [r.WhichOneof("body") for r in replies]
            assert kinds[0] == "snapshot" and set(kinds) == {"snapshot", "error"}, kinds
            refusals = [r.error for r in replies if r.WhichOneof("body") == "error"]
            assert {e.code for e in refusals} == {"limitExceeded"}
            assert all("replies wait unread on this connection" in e.message and "replyQueueBytes, 1048576" in e.message
                       for e in refusals), refusals[0].message
            # Caught up: a snapshot again.
            reader.send(pb.ClientMessage(request_id=301, snapshot=pb.SnapshotRequest()).SerializeToString())
            last = pb.ServerMessage.FromString(reader.recv())
            assert (last.request_id, last.WhichOneof("body")) == (301, "snapshot")
        finally:
            reader.close()
    finally:
        for _ in fixture:
            pass
