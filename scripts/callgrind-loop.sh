#!/usr/bin/env bash
# Counts the instructions the supervisor's loop thread spends per pipelined request (docs/BENCH.md, "The
# supervisor's whole loop"), with valgrind's callgrind: `containment bench loop` runs a real SupervisorLoop — its
# ROUTER and PUB, its journal synced per batch, its driver and metrics — on a thread of its own, driven over ipc by
# --clients × --window pipelined clients on the main thread, and only what runs inside `SupervisorLoop.run` is
# counted: the loop thread's own work, libzmq's calls from it included, the kernel's work in its system calls not.
# Where scripts/callgrind-core.sh counts the core alone, this counts everything the loop thread does per request.
#   scripts/callgrind-loop.sh        # prints instructions per request (REQUESTS=20000 by default), per event, and per
#                                    # request sent one at a time
# The event path is counted apart, as `bench bus` drives it: REQUESTS ÷ 4 requests of 16 `set_alpha` commands, each
# publishing an event to one subscriber (a thread of the bench, not counted).
# valgrind runs one thread at a time, so a step holds what the clients sent while the loop thread waited: the
# counts repeat to ~1% from run to run, not exactly (callgrind-core's do). `bench loop` runs twice (a warm-up of a
# tenth, then the one counted) for each path; the figures are the counted runs'. The output is left in $OUT (default
# /tmp/callgrind-loop); $SCRATCH is the build's scratch path (default .build). Installs valgrind when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
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
mapfile -t counts < <(callgrind_calls "$out" '14SupervisorLoopC3runyyF$' "$BINARY" \
    bench loop --requests "$((requests * 2))" --json)
python3 - "$out" "${counts[@]}" <<'PY'
import json, sys
out, counts = sys.argv[1], [int(c) for c in sys.argv[2:]]
if len(counts) != 4:
    sys.exit(f"callgrind-loop: {len(counts)} dumps of SupervisorLoop.run, not 4; see {out}/valgrind.log")
figure = json.load(open(f"{out}/bench.json"))
requests, events = figure["requests"], figure["events"]
published = events["requests"] * events["eventsPerRequest"]
print(f"loop: pipelined {figure['clients']}x{figure['window']} requests of 1 set_alpha: {counts[1]:,} instructions for "
      f"{requests:,} requests, {counts[1] // requests:,} a request")
print(f"loop: requests of {events['eventsPerRequest']} set_alpha, 1 subscriber: {counts[3]:,} instructions for "
      f"{published:,} events ({events['received']:,} received), {counts[3] // published:,} an event")
PY
# One request at a time (1 client, 1 outstanding): a step per request, as a lone round trip or a typed call meets the
# loop — where what a step and a turn of the loop cost besides the request (waiting, the timers, the journal's write)
# is not shared by a batch.
lone="$out/lone"
mkdir -p "$lone"
mapfile -t counts < <(callgrind_calls "$lone" '14SupervisorLoopC3runyyF$' "$BINARY" \
    bench loop --requests "$((requests * 2 / 5))" --clients 1 --window 1 --json)
python3 - "$lone" "${counts[@]}" <<'PY'
import json, sys
out, counts = sys.argv[1], [int(c) for c in sys.argv[2:]]
if len(counts) != 4:
    sys.exit(f"callgrind-loop: {len(counts)} dumps of SupervisorLoop.run, not 4; see {out}/valgrind.log")
requests = json.load(open(f"{out}/bench.json"))["requests"]
print(f"loop: one request of 1 set_alpha at a time: {counts[1]:,} instructions for {requests:,} requests, "
      f"{counts[1] // requests:,} a request")
PY
