"""Typed methods from Python (issue 44): GridApp's `grid` kind, run by the app's own host executable, lists its
methods with JSON Schemas and answers calls by declared name with their decoded results and typed errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from containment import ContainmentError
from containment.client import labels_of
from support import REPO, run_runtime

GRID_TOPOLOGY = str(REPO / "Examples" / "GridApp" / "Config" / "grid.yaml")
GRID_HOST = REPO / "Examples" / "GridApp" / ".build" / "debug" / "GridHost"


@pytest.fixture
def grid_runtime(containment_bin):
    """GridApp's topology: its hosts run GridHost, built by `swift build` in Examples/GridApp. CI builds it first and
    sets CONTAINMENT_REQUIRE_GRID=1, so that there a missing host fails rather than skips."""
    if not os.access(GRID_HOST, os.X_OK):
        message = f"no GridApp host at {GRID_HOST}: (cd Examples/GridApp && swift build)"
        if os.environ.get("CONTAINMENT_REQUIRE_GRID"):
            pytest.fail(message)
        pytest.skip(message)
    yield from run_runtime(containment_bin, topology=GRID_TOPOLOGY)


def test_labels_of_a_declared_name():
    assert labels_of("insert(child:at:)") == ["child", "at"]
    assert labels_of("add(_:)") == ["_"]
    assert labels_of("children()") == []
    assert labels_of("insert") == []


def test_gridapps_methods_are_listed_with_schemas_and_called_by_name(grid_runtime):
    client = grid_runtime.client(topics=())
    described = client.methods("board")
    assert (described.controller, described.kind, described.host) == ("board", "grid", "grid-host")
    assert described.verbs == ["insert"]
    assert set(described.methods) == {"insert(child:at:)", "feature(child:)", "children()"}
    insert = described.methods["insert(child:at:)"]
    assert [(p.label, p.schema) for p in insert.parameters] == [("child", {"type": "string"}), ("at", {"type": "integer"})]
    assert insert.result == {"type": "array", "items": {"type": "string"}}
    feature = described.methods["feature(child:)"]
    assert feature.parameters[0].schema == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert feature.result == {"type": "null"}

    # Results come back decoded, by label or in order.
    assert client.call("board", "insert(child:at:)", child="a", at=0) == ["a"]
    assert client.call("board", "insert(child:at:)", "b", 0) == ["b", "a"]
    assert client.call("board", "feature(child:)", child="a") is None
    assert client.call("board", "children()") == ["b", "a"]
    tree = client.snapshot()
    assert {c.id for c in tree.controllers if c.HasField("parent") and c.parent == "board"} == {"a", "b"}

    # Typed errors: a name the host did not register, the method's own refusal, arguments of the wrong type.
    with pytest.raises(ContainmentError) as unknown:
        client.call("board", "rotate(by:)", by=1)
    assert unknown.value.code == "unknownVerb"
    assert unknown.value.message.startswith("board, a grid run by host grid-host, has no method rotate(by:)")
    with pytest.raises(ContainmentError) as thrown:
        client.call("board", "insert(child:at:)", child="c", at=-1)
    assert (thrown.value.code, thrown.value.message) == ("indexOutOfRange", "board has no place -1.")
    with pytest.raises(ContainmentError) as refused:
        client.call("board", "insert(child:at:)", child="nobody", at=0)
    assert refused.value.code == "unknownController"
    with pytest.raises(ContainmentError) as malformed:
        client.call("board", "insert(child:at:)", child=5, at=0)
    assert malformed.value.code == "malformed"
    assert client.call("board", "children()") == ["b", "a"]
    with pytest.raises(TypeError):
        client.call("board", "insert(child:at:)", child="c")

    # The command line lists the same.
    listed = grid_runtime.containment("methods", "board")
    assert listed.returncode == 0, listed.stderr
    assert "  insert(child:at:)\n    child: {\"type\":\"string\"}\n    at: {\"type\":\"integer\"}\n" in listed.stdout
