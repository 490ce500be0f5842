#!/usr/bin/env bash
# Counts the instructions the supervisor's core spends per request on `bench core`'s requests (docs/BENCH.md, "The
# supervisor's own work"), with valgrind's callgrind: repeatable, whatever else the machine is doing, so two versions
# of the supervisor's hot path compare exactly — where `bench core`'s timings agree only within a few percent.
#   scripts/callgrind-core.sh        # prints instructions per request of 1 set_alpha, and per request of 16
# `containment` is built in release and copied without its debug info (valgrind 3.19 cannot read the DWARF 5 the
# toolchain writes; the symbols stay), then `containment bench core --quick` runs under callgrind (a synchronous
# command: it runs on the main thread, Sources/containment/main.swift says why that matters), collecting only its timed part
# (`SupervisorCoreBenchmark.handleAll`: decoding, the checks, the model, encoding, the step's lists) with a dump
# after each of its 8 calls: four passes of 20,000 requests of one set_alpha, then four of 1,250 requests of 16. The
# first pass of each is a warm-up, as in `bench core`; the figure is the median of the other three. The callgrind
# output is left in $OUT (default /tmp/callgrind-core) for callgrind_annotate; $SCRATCH is the build's scratch path
# (default .build: a release build beside the debug one). Installs valgrind when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
out="${OUT:-/tmp/callgrind-core}"
bash scripts/setup.sh profile
scratch="${SCRATCH:-.build}"
swift build -c release --scratch-path "$scratch" --product containment >&2
rm -rf "$out"
mkdir -p "$out"
mapfile -t counts < <(callgrind_calls "$out" SupervisorCoreBenchmarkO9handleAll "$scratch/release/containment" \
    bench core --quick --json)
python3 - "$out" "${counts[@]}" <<'PY'
import json, sys
out, counts = sys.argv[1], [int(c) for c in sys.argv[2:]]
if len(counts) != 8:
    sys.exit(f"callgrind-core: {len(counts)} dumps of handleAll, not 8; see {out}/valgrind.log")
figures = json.load(open(f"{out}/bench.json"))
for name, passes in (("pipelined", counts[1:4]), ("delivery", counts[5:8])):
    figure = figures[name]
    median = sorted(passes)[1]
    requests = figure["requests"]
    events = requests * figure["commandsPerRequest"]
    print(f"{name}: requests of {figure['commandsPerRequest']} set_alpha: {median:,} instructions for {requests:,} "
          f"requests, {median // requests:,} a request, {median // events:,} an event")
PY
