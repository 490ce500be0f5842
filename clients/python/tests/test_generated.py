"""What the package holds must follow the repository: the committed containment_pb2.py is what protoc makes of
proto/containment.proto (clients/python/regenerate.sh), and the event categories are PROTOCOL.md's."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from containment import Category, category_of
from containment import containment_pb2 as pb
from containment.events import _FIELDS, Event
from support import REPO

COMMITTED = REPO / "clients" / "python" / "containment" / "containment_pb2.py"


def test_the_committed_module_is_what_protoc_generates(tmp_path):
    protoc = shutil.which("protoc")
    if protoc is None:
        pytest.skip("protoc is not on PATH (bash scripts/setup.sh protoc)")
    proto = REPO / "proto"
    command = [protoc, f"--proto_path={proto}", f"--python_out={tmp_path}", str(proto / "containment.proto")]
    subprocess.run(command, check=True)
    generated = (tmp_path / "containment_pb2.py").read_text()
    assert COMMITTED.read_text() == generated, "proto/containment.proto changed: run clients/python/regenerate.sh"


def test_the_installed_module_is_the_committed_one():
    assert Path(pb.__file__).read_text() == COMMITTED.read_text(), "reinstall: pip install ./clients/python"


def test_categories_are_protocol_md_s():
    text = (REPO / "docs" / "PROTOCOL.md").read_text()
    table = text[text.index("| category | event names |") :].split("\n\n")[0]
    rows = re.findall(r"^\| `(\w+)` \| (.+) \|$", table, flags=re.MULTILINE)
    assert {category for category, _ in rows} == {c.value for c in Category}
    for category, cell in rows:
        for name in re.findall(r"`(\w+)`", cell):
            assert category_of(name) == Category(category), name
    assert category_of("someFutureEvent") == Category.STRUCTURE  # "and any name not listed elsewhere"


def test_typed_fields_are_event_fields():
    proto_fields = {f.name for f in pb.Event.DESCRIPTOR.fields}
    typed = {f.removesuffix("_") for names in _FIELDS.values() for f in names}
    assert typed <= proto_fields
    assert all(hasattr(Event, name) for names in _FIELDS.values() for name in names)
