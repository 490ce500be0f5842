#!/usr/bin/env bash
# Regenerates containment/containment_pb2.py from proto/containment.proto (commit the result; tests/test_generated.py
# fails when the two differ). Needs protoc 3.21 (bash scripts/setup.sh protoc), whose output the protobuf 4.x runtime reads.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
protoc --proto_path="$repo/proto" --python_out="$here/containment" "$repo/proto/containment.proto"
echo "regenerated $here/containment/containment_pb2.py ($(protoc --version))"
