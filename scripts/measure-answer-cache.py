"""What exactly-once's remembered answers cost (docs/OPERATIONS.md): 400 memory warnings to a 10,000-controller tree,
each from a fresh client id — answers of 10,000 events — then the supervisor's RSS before and after, a resend of the
first, kill -9 and the time until the restarted supervisor answers (its recovery). A real runtime of the Python tests'
topology, started and stopped with scripts/up.sh and down.sh.

    bash scripts/test-python-client.sh -k generated     # once: makes .build/python-venv
    CONTAINMENT_BIN=.build/release/containment .build/python-venv/bin/python scripts/measure-answer-cache.py
"""
import os, signal, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "clients", "python", "tests"))
from support import create_controllers, rss_mib as rss, run_runtime
from containment import containment_pb2 as pb
from containment.commands import command

gen = run_runtime(os.environ["CONTAINMENT_BIN"])
runtime = next(gen)
try:
    client = runtime.client()
    client.settle()
    create_controllers(client, 10_000)
    pid = int(open(os.path.join(runtime.run_dir, "supervisor.pid")).read())
    before = rss(pid)
    t0 = time.monotonic()
    for i in range(400):
        message = pb.ClientMessage(client_id=f"fresh-{i}", commands=pb.Batch(commands=[command("system", memory_warning={"all": True})]))
        reply = client.request(message, timeout=60)
        assert reply.WhichOneof("body") == "accepted" and len(reply.accepted.events) >= 10_000, reply.WhichOneof("body")
    took = time.monotonic() - t0
    time.sleep(1)
    after = rss(pid)
    print(f"supervisor RSS {before:.0f} MiB -> {after:.0f} MiB after 400 warnings ({took:.1f} s)")
    # A resend of the first: not applied again, named by seqs.
    again = client.request(pb.ClientMessage(client_id="fresh-0", request_id=message.request_id - 399,
                                            commands=pb.Batch(commands=[command("system", memory_warning={"all": True})])))
    print("resend of the first:", again.accepted.command_id, len(again.accepted.events), again.accepted.elided_first_seq, again.accepted.elided_count)
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    t0 = time.monotonic()
    up = runtime.script("up")
    assert up.returncode == 0, up.stderr
    fresh = runtime.client(topics=())
    snap = fresh.snapshot(timeout=60)
    t1 = time.monotonic()
    pid2 = int(open(os.path.join(runtime.run_dir, "supervisor.pid")).read())
    print(f"restart to first answer: {t1 - t0:.2f} s (seq {snap.seq}); RSS {rss(pid2):.0f} MiB")
    log = open(os.path.join(runtime.run_dir, "logs", "supervisor.log")).read().splitlines()
    print("\n".join(l for l in log if "recovered the journal" in l or "serving" in l)[-600:])
finally:
    try:
        next(gen)
    except StopIteration:
        pass
