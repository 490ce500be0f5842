"""Fixtures: the `containment` binary, and runtimes of topology.yaml started and stopped with the repository's
scripts (scripts/up.sh, scripts/down.sh), without and with CURVE."""

from __future__ import annotations

import os
import subprocess

import pytest

from support import REPO, SECURE_CONFIG, run_runtime


@pytest.fixture(scope="session")
def containment_bin() -> str:
    """CONTAINMENT_BIN, else the one `swift build --show-bin-path` names."""
    path = os.environ.get("CONTAINMENT_BIN")
    if not path:
        bin_dir = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True
        ).stdout.strip()
        path = os.path.join(bin_dir, "containment")
    assert os.access(path, os.X_OK), f"no containment binary at {path}: swift build --product containment"
    return path


@pytest.fixture
def runtime(containment_bin):
    """The test topology in a fresh run directory, with the built-in defaults (no CURVE)."""
    yield from run_runtime(containment_bin)


@pytest.fixture
def secure_runtime(containment_bin):
    """The test topology with Config/runtime-secure.yaml: CURVE on both sockets, keys in {run}/keys."""
    yield from run_runtime(containment_bin, config=SECURE_CONFIG)
