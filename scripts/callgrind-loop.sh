#!/usr/bin/env bash
# Counts the instructions the supervisor's loop thread spends per pipelined request (docs/BENCH.md, "The
# supervisor's whole loop"), with valgrind's callgrind: `containment bench loop` runs a real SupervisorLoop — its
# ROUTER and PUB, its journal synced per batch, its driver and metrics — on a thread of its own, driven over ipc by
# --clients × --window pipelined clients on the main thread, and only what runs inside `SupervisorLoop.run` is
# counted: the loop thread's own work, libzmq's calls from it included, the kernel's work in its system calls not.
# Where scripts/callgrind-core.sh counts the core alone, this counts everything the loop thread does per request.
#   scripts/callgrind-loop.sh        # prints instructions per request (REQUESTS=20000 by default)
# valgrind runs one thread at a time, so a step holds what the clients sent while the loop thread waited: the
# counts repeat to ~1% from run to run, not exactly (callgrind-core's do). `bench loop` runs twice (a warm-up of a
# tenth, then the one counted); the figure is the second run's. The output is left in $OUT (default
# /tmp/callgrind-loop); $SCRATCH is the build's scratch path (default .build). Installs valgrind when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-/tmp/callgrind-loop}"
requests="${REQUESTS:-20000}"
bash scripts/setup.sh profile
scratch="${SCRATCH:-.build}"
if [ -z "${BINARY:-}" ]; then
    swift build -c release --scratch-path "$scratch" --product containment >&2
    BINARY="$scratch/release/containment"
fi
rm -rf "$out"
mkdir -p "$out"
binary="$out/containment"
objcopy --strip-debug "$BINARY" "$binary"
nm "$binary" >"$out/symbols"
symbol="$(awk '/14SupervisorLoopC3runyyF$/ {print $3; exit}' "$out/symbols")"
[ -n "$symbol" ] || { echo "callgrind-loop: no SupervisorLoop.run in $binary" >&2; exit 1; }
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" --compress-strings=no --toggle-collect="$symbol" \
    --dump-after="$symbol" "$binary" bench loop --requests "$((requests * 2))" --json >"$out/bench.json" 2>"$out/valgrind.log"
python3 - "$out" <<'PY'
import glob, json, re, sys
out = sys.argv[1]
def counted(path):
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    return 0
dumps = sorted(glob.glob(f"{out}/callgrind.out.*"), key=lambda p: int(re.search(r"\.(\d+)$", p).group(1)))
counts = [c for c in (counted(p) for p in dumps) if c > 0]
if len(counts) != 2:
    sys.exit(f"callgrind-loop: {len(counts)} dumps of SupervisorLoop.run, not 2; see {out}/valgrind.log")
figure = json.load(open(f"{out}/bench.json"))
requests = figure["requests"]
print(f"loop: pipelined {figure['clients']}x{figure['window']} requests of 1 set_alpha: {counts[1]:,} instructions for "
      f"{requests:,} requests, {counts[1] // requests:,} a request")
PY
