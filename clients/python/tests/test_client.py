"""The client package's own promises, against a real runtime: typed errors, exactly-once resends, the mirror, late
subscribers, heartbeats and CURVE."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from containment import (
    Category,
    ContainmentError,
    CurveKeys,
    Mirror,
    Rect,
    RequestTimeout,
    Size,
    Tree,
    command,
    read_journal,
)
from containment import containment_pb2 as pb
from support import CONTROLLERS, assert_same_tree, names


def catch_up(mirror: Mirror, seq: int, timeout: float = 10.0) -> None:
    """Pumps the mirror until it holds event `seq`."""
    deadline = time.monotonic() + timeout
    while mirror.tree.seq < seq:
        assert time.monotonic() < deadline, f"the mirror stopped at {mirror.tree.seq}, not {seq}: {mirror.notices}"
        mirror.pump(0.2)


def ok(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, f"{done.args}: {done.stdout}{done.stderr}"


def test_a_rule_violation_raises_a_typed_error(runtime):
    client = runtime.client()
    client.settle()
    mirror = Mirror(client)
    start = mirror.tree.seq

    # second's root view is framed by its parent (menu) only: not by its sibling first.
    with pytest.raises(ContainmentError) as refused:
        client.submit([command("first", set_frame={"view": "second", "frame": {"width": 10, "height": 10}})])
    error = refused.value
    assert not isinstance(error, RequestTimeout)
    assert error.code == "frameAuthority" and error.index == 0
    assert error.message and str(error) == f"frameAuthority: {error.message}"

    # The error names the point of the sequence where it was judged: its ruleViolation event.
    (violation,) = mirror.until(lambda e: e.name == "ruleViolation")
    assert (error.command_id, error.seq) == (violation.command_id, violation.seq) and violation.seq == start + 1
    assert (violation.code, violation.message, violation.command) == ("frameAuthority", error.message, "set-frame")
    assert (violation.by, violation.controller, violation.category) == ("first", "second", Category.RUNTIME)
    assert violation.topic == "runtime/ruleViolation/second"

    # Nothing changed; a refusal before the model (a batch without commands) has no event: command_id and seq 0.
    assert_same_tree(mirror.tree, Tree(client.snapshot()))
    with pytest.raises(ContainmentError) as malformed:
        client.submit([])
    assert (malformed.value.code, malformed.value.command_id, malformed.value.seq) == ("malformed", 0, 0)


def test_a_resend_is_answered_once_and_not_applied_twice(runtime):
    client = runtime.client(resend_after=0.2)
    client.settle()
    mirror = Mirror(client)
    start = mirror.tree.seq

    # The supervisor is stopped while the request is out: the client sends it again every 0.2 s, unchanged. Once it
    # runs again it applies the first copy and answers every later one with the same answer, applying nothing.
    pid = int(Path(runtime.run_dir, "supervisor.pid").read_text().strip())
    os.kill(pid, signal.SIGSTOP)
    resume = threading.Timer(1.0, os.kill, (pid, signal.SIGCONT))
    resume.start()
    try:
        create = command("system", create={"id": "once", "kind": "content"})
        message = pb.ClientMessage(commands=pb.Batch(commands=[create]))
        reply = client.request(message)
    finally:
        resume.cancel()
        os.kill(pid, signal.SIGCONT)
    assert reply.WhichOneof("body") == "accepted", reply
    assert message.client_id == client.client_id and len(client.client_id) == 16
    assert [e.name for e in reply.accepted.events] == ["controllerCreated"]
    assert client.dealer.poll(1000), "the resends are answered too: their copies of the answer follow"

    # The same request once more (its reply lost, say): the first answer, byte for byte.
    again = pb.ClientMessage()
    again.CopyFrom(message)
    assert client.request(again).SerializeToString() == reply.SerializeToString()
    # The late copies of the answer were dropped: the next request gets its own.
    assert [c.id for c in client.snapshot().controllers] == CONTROLLERS + ["once"]

    # Applied once: one controllerCreated, and no duplicateID violation of a second create.
    snapshot = client.snapshot()
    assert snapshot.seq == start + 1
    catch_up(mirror, snapshot.seq)
    assert names(e for _, e in mirror.applied) == ["controllerCreated"]
    assert client.next_event(0.3) is None

    # The same request id under another client id is another request: applied, so refused this time.
    other = runtime.client(topics=())
    copy = pb.ClientMessage(request_id=message.request_id, commands=message.commands)
    refused = other.request(copy)
    assert copy.client_id == other.client_id != client.client_id
    assert (refused.WhichOneof("body"), refused.error.code) == ("error", "duplicateID")


def test_a_resend_of_an_answer_too_large_to_keep_names_its_events(runtime):
    client = runtime.client()
    client.settle()
    # 800 creations: 800 events, an answer over 64 KiB, which the supervisor keeps as its command id and seqs.
    hosts = [h.name for h in client.snapshot().hosts]
    creates = [
        command("system", create={"id": f"many{i}", "kind": "content", "host": hosts[i % len(hosts)]}) for i in range(800)
    ]
    message = pb.ClientMessage(commands=pb.Batch(commands=creates))
    first = client.request(message)
    assert first.WhichOneof("body") == "accepted", first
    seqs = [e.seq for e in first.accepted.events]
    assert len(seqs) == 800 and first.accepted.elided_count == 0

    again = pb.ClientMessage()
    again.CopyFrom(message)
    resent = client.request(again)
    assert resent.accepted.command_id == first.accepted.command_id and not resent.accepted.events
    assert range(resent.accepted.elided_first_seq, resent.accepted.elided_first_seq + resent.accepted.elided_count) \
        == range(seqs[0], seqs[-1] + 1)
    # Not applied again: each controller once.
    ids = [c.id for c in client.snapshot().controllers]
    assert sum(1 for i in ids if i.startswith("many")) == 800


def test_the_mirror_agrees_with_a_fresh_snapshot_after_events(runtime):
    client = runtime.client()
    client.settle()
    mirror = Mirror(client)

    client.submit([command("system", create={"id": name, "kind": "content"}) for name in ("a", "b")])
    ok(runtime.ctl("embed", "menu", "a", "--frame", "10,20,300,400", "--quiet"))
    ok(runtime.ctl("embed", "a", "b", "--frame", "0,0,30,40", "--quiet"))
    # SPEC §16: a constraint of menu's (its own root view the frame of reference) and the frames the solver sets.
    half = {"owner": "menu", "id": "half", "expression": "a.width == 0.5 * menu.width"}
    client.submit([command("menu", constrain=half)])
    ok(runtime.ctl("constrain", "a", "narrow", "b.width <= 20", "--quiet"))
    ok(runtime.ctl("resize", "main", "800x600", "--quiet"))
    ok(runtime.ctl("unembed", "b", "--quiet"))
    ok(runtime.ctl("destroy", "b", "--quiet"))
    snapshot = client.snapshot()
    catch_up(mirror, snapshot.seq)

    assert mirror.snapshots == 1, mirror.notices  # folded, not re-read
    assert_same_tree(mirror.tree, Tree(snapshot))
    assert mirror.tree.nodes["a"].parent == "menu" and mirror.tree.nodes["a"].children == []
    assert mirror.tree.nodes["menu"].constraints == {"half": "a.width == 0.5 * menu.width"}
    assert mirror.tree.nodes["a"].constraints == {}  # `narrow` left with b
    assert mirror.tree.nodes["a"].frame == Rect(10, 20, 400, 400)
    assert "b" not in mirror.tree.nodes and mirror.tree.windows["main"] == ("menu", (800, 600))
    folded = [e for _, e in mirror.applied]
    added = [(e.controller, e.constraint_id, e.expression) for e in folded if e.name == "constraintAdded"]
    assert added == [("menu", "half", "a.width == 0.5 * menu.width"), ("a", "narrow", "b.width <= 20")]
    assert [(e.controller, e.constraint_id) for e in folded if e.name == "constraintRemoved"] == [("a", "narrow")]
    assert [e.size for e in folded if e.name == "windowResized"] == [Size(800, 600)]
    assert [e.frame for e in folded if e.name == "frameChanged" and e.view == "a"][0] == Rect(10, 20, 300, 400)
    assert [e.parent for e in folded if e.name == "childRemoved"] == ["a"]
    assert [(t, e.seq) for t, e in mirror.applied] == [(e.topic, e.seq) for e in folded]


def test_a_late_subscriber_gets_earlier_state_from_a_snapshot(runtime):
    early = runtime.client()
    early.settle()
    created = early.submit([command("system", create={"id": "early", "kind": "content"})])
    ok(runtime.ctl("embed", "menu", "early", "--frame", "0,0,50,50", "--quiet"))

    # Subscribed after those events: they are not sent again, the snapshot holds them.
    late = runtime.client()
    late.settle()
    mirror = Mirror(late)
    node = mirror.tree.nodes["early"]
    assert (node.parent, node.appearance, node.frame) == ("menu", "appeared", (0, 0, 50, 50))
    assert_same_tree(mirror.tree, Tree(early.snapshot()))

    # While nothing happens the supervisor beats, under the topic `heartbeat`: never folded as an event.
    assert mirror.pump(1.5) is None
    beat = late.heartbeat
    assert beat is not None and (beat.epoch, beat.seq) == (mirror.tree.epoch, mirror.tree.seq)
    assert mirror.snapshots == 1 and not mirror.notices

    # From now on it follows the events.
    before = mirror.tree.seq
    ok(runtime.ctl("unembed", "early", "--quiet"))
    folded = mirror.until(lambda e: e.name == "childRemoved")
    assert folded[0].seq == before + 1 and folded[-1].controller == "early"
    snapshot = late.snapshot()
    catch_up(mirror, snapshot.seq)
    assert mirror.tree.nodes["early"].parent is None
    assert_same_tree(mirror.tree, Tree(snapshot))

    # The whole history is in the journal.
    journaled = [r for r in read_journal(Path(runtime.run_dir, "journal")) if r.command_id == created.command_id]
    assert [c.create.id for r in journaled for c in r.commands] == ["early"]


def test_curve(secure_runtime):
    runtime = secure_runtime
    operator = runtime.client(curve=CurveKeys.from_run_dir(runtime.run_dir, "operator"))
    operator.settle()
    mirror = Mirror(operator)
    assert list(mirror.tree.order) == CONTROLLERS
    accepted = operator.submit([command("system", create={"id": "curved", "kind": "content"})])
    (created,) = mirror.until(lambda e: e.name == "controllerCreated")
    assert created == accepted.events[0] and created.controller == "curved"

    # The observer reads and watches, and may not act.
    observer = runtime.client(curve=CurveKeys.from_run_dir(runtime.run_dir, "observer"))
    assert "curved" in [c.id for c in observer.snapshot().controllers]
    with pytest.raises(ContainmentError) as refused:
        observer.submit([command("system", destroy={"id": "curved"})])
    assert refused.value.code == "unauthorized"

    # Without CURVE, or with a key the supervisor does not admit: no reply and no event at all.
    Path(runtime.run_dir, "stranger").mkdir()
    ok(runtime.containment("keygen", str(Path(runtime.run_dir, "stranger", "key"))))
    stranger = CurveKeys.from_files(Path(runtime.run_dir, "keys", "server"), Path(runtime.run_dir, "stranger", "key"))
    for curve in (None, stranger):
        outsider = runtime.client(curve=curve, timeout=1.5)
        with pytest.raises(RequestTimeout):
            outsider.snapshot()
        assert outsider.next_event(1.0) is None and outsider.heartbeat is None
