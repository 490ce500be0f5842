#!/usr/bin/env bash
# Regenerates Sources/ContainmentBus/Generated/containment.pb.swift and the Python client's containment_pb2.py from
# proto/containment.proto.
# Needs protoc (bash scripts/setup.sh generate installs it) and protoc-gen-swift of the swift-protobuf version
# Package.swift names (build it once: `swift build -c release --product protoc-gen-swift` in a checkout of
# swift-protobuf, and pass its path as PROTOC_GEN_SWIFT). The generated file is committed, so neither is needed to build the project.
#
# Why the generated file's `@unchecked Sendable` and `nonisolated(unsafe)` are safe (it says DO NOT EDIT, so the
# proof lives here): swift-protobuf gives the three messages with many fields (Create, Event, ControllerState) a
# private `_StorageClass` reference that every mutation copies first when it is shared (copy-on-write, checked with
# isKnownUniquelyReferenced), so a value is never mutated through storage another value can see: the struct is a
# value type in all but representation, hence `@unchecked Sendable`. Each `static nonisolated(unsafe) let
# defaultInstance` is an immutable shared empty storage that is only ever copied, never written (the generator's own
# comment beside each says so).
set -euo pipefail
cd "$(dirname "$0")/.."
plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || true)}"
[ -x "$plugin" ] || { echo "set PROTOC_GEN_SWIFT to the protoc-gen-swift binary" >&2; exit 1; }
protoc --plugin="protoc-gen-swift=$plugin" --proto_path=proto \
    --swift_out=Sources/ContainmentBus/Generated --swift_opt=Visibility=Public proto/containment.proto

# The proof above, beside each use in the generated file too.
generated=Sources/ContainmentBus/Generated/containment.pb.swift
sed -i -E 's|^(public nonisolated struct [A-Za-z0-9_]+: @unchecked Sendable \{)$|// Safe: its only reference, `_storage`, is copied before any mutation when shared (copy-on-write), so no two values\n// ever mutate the same storage; see scripts/generate-protocol.sh.\n\1|' "$generated"

# The Python client's module from the same file (its test compares the two).
bash clients/python/regenerate.sh
