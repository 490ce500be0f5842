#!/usr/bin/env bash
# Measures how long a supervised host takes to come back after `kill -9`: from the kill to `hostRestarted`, and to
# the restored actor of its last controller answering `inspect`, for a host running N controllers (issue 10).
#   scripts/measure-host-restart.sh [N ...]      (default: 100 10000; release build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
quiet_swift build -c release --product containment >&2
bin="$(swift build -c release --show-bin-path)/containment"
export CONTAINMENT_BIN="$bin"

for count in "${@:-100 10000}"; do
    run_dir="$(mktemp -d /tmp/containment-measure-XXXXXX)"
    export CONTAINMENT_RUN_DIR="$run_dir"
    topology="$run_dir/topology.yaml"
    {
        echo "window: {name: main, width: 800, height: 600, root: root}"
        echo "controllers:"
        echo "  - {id: root, kind: content, host: h0}"
        for i in $(seq 1 "$count"); do echo "  - {id: c$i, kind: content, host: h1}"; done
    } >"$topology"
    bash scripts/up.sh "$topology" >/dev/null
    pid="$(cat "$run_dir/host-h1.pid")"
    start=$(date +%s%N)
    kill -KILL "$pid"
    until "$bin" wait --hosts h1 --timeout 0.05 >/dev/null 2>&1 \
        && [ "$(cat "$run_dir/host-h1.pid" 2>/dev/null)" != "$pid" ]; do :; done
    registered=$(date +%s%N)
    until "$bin" inspect "c$count" 2>/dev/null | grep -q "restored from the state"; do :; done
    restored=$(date +%s%N)
    echo "$count controllers on the host: SIGKILL → hostRestarted $(( (registered - start) / 1000000 )) ms," \
        "→ its last actor restored $(( (restored - start) / 1000000 )) ms"
    bash scripts/down.sh >/dev/null || true
    rm -rf "$run_dir"
done
