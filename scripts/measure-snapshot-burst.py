"""What a burst of snapshot requests costs the supervisor (docs/OPERATIONS.md): 500 clients ask for a snapshot of a
10,000-controller tree and close before it is sent, three times; how long another client's command then waits. A
real runtime of the Python tests' topology, started and stopped with scripts/up.sh and down.sh.

    bash scripts/test-python-client.sh -k generated     # once: makes .build/python-venv
    ulimit -n 8192; CONTAINMENT_BIN=.build/release/containment .build/python-venv/bin/python scripts/measure-snapshot-burst.py
"""
import os, sys, time, zmq
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "clients", "python", "tests"))
from support import create_controllers, run_runtime
from containment import containment_pb2 as pb
from containment.commands import command

gen = run_runtime(os.environ["CONTAINMENT_BIN"])
runtime = next(gen)
try:
    client = runtime.client(topics=())
    create_controllers(client, 10_000)
    size = len(client.snapshot().SerializeToString())
    ctx = zmq.Context.instance()
    for round in range(3):
        socks = []
        for i in range(500):
            s = ctx.socket(zmq.DEALER)
            s.setsockopt(zmq.LINGER, 2000)
            s.connect(runtime.command)
            s.send(pb.ClientMessage(request_id=1, snapshot=pb.SnapshotRequest()).SerializeToString())
            socks.append(s)
        t0 = time.monotonic()
        for s in socks:
            s.close(linger=2000)
        # Another client's command, right after.
        client.submit([command("system", create={"id": f"after{round}", "kind": "content"})], timeout=120)
        print(f"round {round}: snapshot {size} bytes; another client's command answered {1000*(time.monotonic()-t0):.0f} ms after 500 snapshot-and-close clients")
finally:
    try:
        next(gen)
    except StopIteration:
        pass
