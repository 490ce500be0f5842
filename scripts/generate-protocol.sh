#!/usr/bin/env bash
# Regenerates Sources/ContainmentBus/Generated/containment.pb.swift from proto/containment.proto.
# Needs protoc (apt: protobuf-compiler) and protoc-gen-swift of the swift-protobuf version Package.swift names
# (build it once: `swift build -c release --product protoc-gen-swift` in a checkout of swift-protobuf, and pass its
# path as PROTOC_GEN_SWIFT). The generated file is committed, so neither is needed to build the project.
set -euo pipefail
cd "$(dirname "$0")/.."
plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || true)}"
[ -x "$plugin" ] || { echo "set PROTOC_GEN_SWIFT to the protoc-gen-swift binary" >&2; exit 1; }
protoc --plugin="protoc-gen-swift=$plugin" --proto_path=proto \
    --swift_out=Sources/ContainmentBus/Generated --swift_opt=Visibility=Public proto/containment.proto
