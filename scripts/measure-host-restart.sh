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
    # hostDown and hostRestarted are timed by the supervisor's own clock (their `time`), from `watch`; the restored
    # actor by polling `inspect` (each poll a CLI start, a few ms).
    "$bin" watch --json --idle-timeout 5 >"$run_dir/events.json" &
    watcher=$!
    sleep 0.5
    start=$(date +%s%N)
    kill -KILL "$pid"
    until "$bin" inspect "c$count" 2>/dev/null | grep -q "restored from the state"; do :; done
    restored=$(date +%s%N)
    wait "$watcher" || true
    event_time() { grep "\"event\":\"$1\"" "$run_dir/events.json" | head -1 | sed 's/.*"time":\([0-9]*\).*/\1/'; }
    down=$(event_time hostDown)
    registered=$(event_time hostRestarted)
    echo "$count controllers on the host: SIGKILL → hostDown $(( (down - start) / 1000000 )) ms," \
        "→ hostRestarted $(( (registered - start) / 1000000 )) ms," \
        "→ its last actor restored $(( (restored - start) / 1000000 )) ms"
    bash scripts/down.sh >/dev/null || true
    rm -rf "$run_dir"
done
