"""What the tests share: a runtime started with scripts/up.sh in a run directory of its own, and assertions."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from containment import Client, CurveKeys, Event, Tree, command, default_endpoints

REPO = Path(__file__).resolve().parents[3]
TOPOLOGY = str(Path(__file__).resolve().parent / "topology.yaml")
SECURE_CONFIG = str(REPO / "Config" / "runtime-secure.yaml")
CONTROLLERS = ["menu", "first", "second", "third"]
HOSTS = ["first-host", "menu-host", "second-host", "third-host"]


@dataclass
class Runtime:
    """A runtime of the test topology, and the clients made for it (closed when it stops)."""

    run_dir: str
    env: dict
    bin: str
    clients: list = field(default_factory=list)

    @property
    def command(self) -> str:
        return default_endpoints(self.run_dir)[0]

    @property
    def events(self) -> str:
        return default_endpoints(self.run_dir)[1]

    def client(self, topics: Iterable[str] = ("",), curve: Optional[CurveKeys] = None, **options) -> Client:
        client = Client(self.command, self.events, topics=topics, curve=curve, **options)
        self.clients.append(client)
        return client

    def containment(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([self.bin, *args], cwd=REPO, env=self.env, capture_output=True, text=True, timeout=60)

    def ctl(self, *args: str) -> subprocess.CompletedProcess:
        return self.containment("ctl", *args)

    def script(self, name: str, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
        """Runs scripts/NAME.sh of the repository with this runtime's environment."""
        return subprocess.run(
            ["bash", f"scripts/{name}.sh", *args], cwd=REPO, env=self.env, capture_output=True, text=True,
            timeout=timeout,
        )

    def logs(self) -> str:
        text = []
        for log in sorted(Path(self.run_dir, "logs").glob("*.log")):
            text.append(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}")
        return "\n".join(text)


def short_temp_dir() -> str:
    """A fresh run directory whose socket paths fit in an ipc:// address (about 100 bytes)."""
    base = tempfile.gettempdir()
    if len(base) > 40:
        base = "/tmp"
    return tempfile.mkdtemp(prefix="containment-py-", dir=base)


def run_runtime(bin: str, config: Optional[str] = None, topology: str = TOPOLOGY):
    """A generator for a fixture: starts `topology` (the test topology by default) with scripts/up.sh (with CONTAINMENT_CONFIG=config when
    given), yields the Runtime, and stops it with scripts/down.sh, which must exit 0 — also when the test failed."""
    run_dir = short_temp_dir()
    env = dict(os.environ, CONTAINMENT_RUN_DIR=run_dir)
    env.pop("CONTAINMENT_CONFIG", None)
    if config is not None:
        env["CONTAINMENT_CONFIG"] = config
    runtime = Runtime(run_dir=run_dir, env=env, bin=bin)
    try:
        up = runtime.script("up", topology)
        assert up.returncode == 0, f"up.sh failed ({up.returncode}):\n{up.stdout}\n{up.stderr}\n{runtime.logs()}"
        yield runtime
    finally:
        for client in runtime.clients:
            client.close()
        down = runtime.script("down", timeout=120)
        shutil.rmtree(run_dir, ignore_errors=True)
        assert down.returncode == 0, f"down.sh failed ({down.returncode}):\n{down.stdout}\n{down.stderr}"


def names(events: Iterable[Event]) -> list[str]:
    return [e.name for e in events]


def assert_consecutive(events: list[Event], after: int) -> None:
    assert [e.seq for e in events] == list(range(after + 1, after + 1 + len(events)))


def assert_same_tree(a: Tree, b: Tree) -> None:
    assert a.seq == b.seq
    assert a.order == b.order
    assert a.nodes == b.nodes
    assert a.windows == b.windows
    assert a.hosts == b.hosts


def create_controllers(client: Client, count: int) -> None:
    """`count` content controllers, w0, w1, …, spread over the runtime's hosts in requests of 1,000 (a large tree
    for the tests and scripts that measure what it costs)."""
    hosts = [h.name for h in client.snapshot().hosts]
    for start in range(0, count, 1_000):
        client.submit([command("system", create={"id": f"w{i}", "kind": "content", "host": hosts[i % len(hosts)]})
                       for i in range(start, min(start + 1_000, count))], timeout=60)


def rss_mib(pid: int) -> float:
    """A process's resident memory (VmRSS), in MiB."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise ValueError(f"no VmRSS for pid {pid}")
