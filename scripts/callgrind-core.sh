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
out="${OUT:-/tmp/callgrind-core}"
bash scripts/setup.sh profile
scratch="${SCRATCH:-.build}"
swift build -c release --scratch-path "$scratch" --product containment >&2
rm -rf "$out"
mkdir -p "$out"
binary="$out/containment"
objcopy --strip-debug "$scratch/release/containment" "$binary"
nm "$binary" >"$out/symbols"
symbol="$(awk '/SupervisorCoreBenchmarkO9handleAll/ {print $3; exit}' "$out/symbols")"
[ -n "$symbol" ] || { echo "callgrind-core: no SupervisorCoreBenchmark.handleAll in $binary" >&2; exit 1; }
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" --compress-strings=no --toggle-collect="$symbol" \
    --dump-after="$symbol" "$binary" bench core --quick --json >"$out/bench.json" 2>"$out/valgrind.log"
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
counts = [counted(p) for p in dumps]
counts = [c for c in counts if c > 0]
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
print(f"profile: callgrind_annotate {out}/callgrind.out.<n> (2-4: requests of 1, 6-8: of 16)")
PY
