"""What clients that do not read their replies cost the supervisor (docs/OPERATIONS.md, "Bounds"): three connections
each ask for 2,000 snapshots of a 5,000-controller tree (about 250 KB each) and never read, while another client
sends one command at a time; the supervisor's RSS before, at its peak and after the three closed, the other client's
latencies, and what a reading client sees once it reads. A real runtime of the Python tests' topology, started and
stopped with scripts/up.sh and down.sh.

    bash scripts/test-python-client.sh -k generated     # once: makes .build/python-venv
    CONTAINMENT_BIN=.build/release/containment .build/python-venv/bin/python scripts/measure-unread-replies.py
"""
import os, sys, threading, time, zmq
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "clients", "python", "tests"))
from support import create_controllers, rss_mib as rss, run_runtime
from containment import containment_pb2 as pb
from containment.commands import command

CONNECTIONS, REQUESTS = 3, 2_000

gen = run_runtime(os.environ["CONTAINMENT_BIN"])
runtime = next(gen)
try:
    client = runtime.client(topics=())
    create_controllers(client, 5_000)
    size = len(client.snapshot().SerializeToString())
    pid = int(open(os.path.join(runtime.run_dir, "supervisor.pid")).read())
    time.sleep(1)
    baseline = rss(pid)
    # Another client: one command at a time, each one's round trip.
    latencies, stop = [], threading.Event()
    def load():
        other = runtime.client(topics=())
        n = 0
        while not stop.is_set():
            t = time.monotonic()
            other.submit([command("system", create={"id": f"load{n}", "kind": "content"})], timeout=120)
            latencies.append(time.monotonic() - t)
            n += 1
            time.sleep(0.005)
    loader = threading.Thread(target=load)
    loader.start()
    time.sleep(0.5)
    ctx = zmq.Context.instance()
    socks = []
    for c in range(CONNECTIONS):
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RCVHWM, 10)  # the client holds little: what waits, waits in the supervisor
        s.connect(runtime.command)
        for r in range(REQUESTS):
            s.send(pb.ClientMessage(request_id=r + 1, snapshot=pb.SnapshotRequest()).SerializeToString())
        socks.append(s)
    peak = baseline
    for _ in range(40):
        time.sleep(0.25)
        peak = max(peak, rss(pid))
    during = sorted(latencies)
    # One of them reads now: how many snapshots, how many refusals and why.
    kinds, reasons, ids = {}, set(), []
    reader = socks[0]
    while reader.poll(2000):
        reply = pb.ServerMessage.FromString(reader.recv())
        ids.append(reply.request_id)
        kind = reply.WhichOneof("body")
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind == "error":
            reasons.add(f"{reply.error.code}: {reply.error.message.split(':')[0]}: …")
    for s in socks:
        s.close()
    time.sleep(5)
    stop.set()
    loader.join()
    after = rss(pid)
    p = lambda q: 1000 * during[min(len(during) - 1, int(q * len(during)))]
    print(f"snapshot {size} bytes; {CONNECTIONS} connections x {REQUESTS} requests, not read")
    print(f"supervisor RSS: baseline {baseline:.0f} MiB, peak {peak:.0f} MiB (+{peak - baseline:.0f}), "
          f"5 s after they closed {after:.0f} MiB")
    print(f"another client's commands while they waited: {len(during)}, p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, "
          f"max {1000 * during[-1]:.1f} ms")
    print(f"the first connection, reading at last: {kinds}")
    for reason in sorted(reasons):
        print(f"  {reason}")
    missing = sorted(set(range(1, REQUESTS + 1)) - set(ids))
    print(f"  in order: {ids == sorted(ids)}; unanswered: {len(missing)}"
          + (f" (ids {missing[0]}..{missing[-1]})" if missing else ""))
    said = [line for line in runtime.logs().splitlines() if "replies" in line]
    print(f"the supervisor's log on replies ({len(said)} lines):")
    for line in said[:6]:
        print(f"  {line[:220]}")
finally:
    try:
        next(gen)
    except StopIteration:
        pass
