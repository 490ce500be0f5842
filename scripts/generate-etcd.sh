#!/usr/bin/env bash
# Regenerates Sources/ContainmentEtcd/Generated/ (etcd's v3 API: messages and gRPC clients) from etcd's own .proto files,
# as Debian ships them in golang-etcd-server-dev (etcd 3.4), trimmed to what the replicated journal uses: the KV
# service (Range, Put, DeleteRange, Txn), Watch, Lease (Grant, Revoke, KeepAlive), Auth's Authenticate, Maintenance's
# Status, and the messages they reach. The trimmed files are written to proto/etcd/ and committed with the generated
# code, so neither this script's tools nor the Debian package are needed to build the project.
#
# Needs protoc (bash scripts/setup.sh generate installs it), golang-etcd-server-dev, and the protoc plugins of the
# versions Package.swift names: protoc-gen-swift (swift-protobuf) and protoc-gen-grpc-swift-2 (grpc-swift-protobuf);
# build each once with `swift build -c release --product NAME` in a checkout, and pass their paths as PROTOC_GEN_SWIFT
# and PROTOC_GEN_GRPC_SWIFT.
#
set -euo pipefail
cd "$(dirname "$0")/.."
source=/usr/share/gocode/src/go.etcd.io/etcd
swift_plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || true)}"
grpc_plugin="${PROTOC_GEN_GRPC_SWIFT:-$(command -v protoc-gen-grpc-swift-2 || true)}"
[ -d "$source" ] || { echo "apt-get install golang-etcd-server-dev (etcd's .proto files)" >&2; exit 1; }
[ -x "$swift_plugin" ] || { echo "set PROTOC_GEN_SWIFT to the protoc-gen-swift binary" >&2; exit 1; }
[ -x "$grpc_plugin" ] || { echo "set PROTOC_GEN_GRPC_SWIFT to the protoc-gen-grpc-swift-2 binary" >&2; exit 1; }

python3 - "$source" proto/etcd <<'PY'
import re, sys
source, out = sys.argv[1], sys.argv[2]
keep = {
    "KV": ["Range", "Put", "DeleteRange", "Txn"],
    "Watch": ["Watch"],
    "Lease": ["LeaseGrant", "LeaseRevoke", "LeaseKeepAlive"],
    "Auth": ["Authenticate"],
    "Maintenance": ["Status"],
}

def strip(text):
    text = re.sub(r'import "gogoproto/gogo.proto";\n', "", text)
    text = re.sub(r'import "google/api/annotations.proto";\n', "", text)
    text = re.sub(r"option \(gogoproto\.[^;]*;\n", "", text)
    text = re.sub(r"\s*\[\(gogoproto\.[^\]]*\]", "", text)
    text = re.sub(r"\{\s*option \(google\.api\.http\) = \{(?:[^{}]|\{[^{}]*\})*\};\s*\}", "{}", text)
    return text

def blocks(text):
    """Top-level `message|service|enum NAME { ... }` blocks, with the comment lines just above each."""
    found = {}
    for match in re.finditer(r"^((?://[^\n]*\n)*)(message|service|enum) (\w+) \{", text, re.M):
        depth, index = 0, match.end() - 1
        while True:
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            index += 1
            if depth == 0:
                break
        found[match.group(3)] = (match.group(2), text[match.start():index])
    return found

header = "// Trimmed by scripts/generate-etcd.sh from etcd 3.4's {} (Debian golang-etcd-server-dev): only what\n// Containment's replicated journal uses. Field numbers and types are etcd's own.\n"
rpc = strip(open(f"{source}/etcdserver/etcdserverpb/rpc.proto").read())
kv = strip(open(f"{source}/mvcc/mvccpb/kv.proto").read())
found = blocks(rpc)
services = []
for name, methods in keep.items():
    kind, body = found[name]
    # Line by line: an rpc goes with the comment lines just above it.
    lines, pending = [], []
    for line in body.split("\n"):
        match = re.match(r"\s+rpc (\w+)\(", line)
        if line.strip().startswith("//"):
            pending.append(line)
            continue
        if match is None or match.group(1) in methods:
            lines += pending + [line]
        pending = []
    services.append("\n".join(lines))
needed, queue = set(), [t for s in services for t in re.findall(r"\((?:stream )?(\w+)\)", s)]
while queue:
    name = queue.pop()
    if name in needed or name not in found:
        continue
    needed.add(name)
    body = found[name][1]
    queue += re.findall(r"^\s+(?:repeated )?([A-Z]\w*)(?:\.\w+)? \w+ = \d+;", body, re.M)
order = [n for n in found if n in needed and found[n][0] != "service"]
preamble = rpc[: rpc.index("service KV")].rstrip() + "\n"
text = header.format("etcdserverpb/rpc.proto") + preamble.replace('import "etcd/', 'import "')
text = text.replace('import "mvcc/mvccpb/kv.proto";', 'import "etcd/kv.proto";').replace('import "auth/authpb/auth.proto";\n', "")
text += "\n" + "\n\n".join(services) + "\n\n" + "\n\n".join(found[n][1] for n in order) + "\n"
open(f"{out}/rpc.proto", "w").write(text)
open(f"{out}/kv.proto", "w").write(header.format("mvccpb/kv.proto") + kv)
PY

mkdir -p Sources/ContainmentEtcd/Generated
protoc --plugin="protoc-gen-swift=$swift_plugin" --plugin="protoc-gen-grpc-swift=$grpc_plugin" --proto_path=proto \
    --swift_out=Sources/ContainmentEtcd/Generated --swift_opt=Visibility=Internal \
    --grpc-swift_out=Sources/ContainmentEtcd/Generated --grpc-swift_opt=Visibility=Internal,Server=false \
    etcd/rpc.proto etcd/kv.proto
# kv.proto holds no service: its gRPC file would be empty.
rm -f Sources/ContainmentEtcd/Generated/etcd/kv.grpc.swift
echo "generated: $(ls Sources/ContainmentEtcd/Generated/etcd/)"
