#!/usr/bin/env bash
# Counts the instructions the model spends on the bench's recorded random stream (docs/BENCH.md, "Profiling the
# model"), with valgrind's callgrind: repeatable, whatever else the machine is doing, so two versions of a hot path
# compare exactly.
#   scripts/callgrind-model.sh [STEPS]     # default 20000; prints instructions in all and per step
# The model, the solver it imports and the workload are compiled from Sources/ as one module with swiftc -O (valgrind
# 3.19 cannot load the `containment` binary itself); the callgrind output is left in $OUT (default
# /tmp/callgrind-model) for callgrind_annotate. Installs valgrind when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
steps="${1:-20000}"
out="${OUT:-/tmp/callgrind-model}"
bash scripts/setup.sh profile
rm -rf "$out"
mkdir -p "$out/src"
for file in Sources/ContainmentModel/*.swift; do
    sed -e 's/^import Cassowary$//' -e 's/Cassowary\.//g' "$file" >"$out/src/$(basename "$file")"
done
for file in Sources/Cassowary/*.swift; do cp "$file" "$out/src/Cassowary_$(basename "$file")"; done
for file in Sources/ContainmentWorkload/*.swift; do
    sed 's/^import ContainmentModel$//' "$file" >"$out/src/Workload_$(basename "$file")"
done
cat >"$out/src/main.swift" <<'EOF'
let count = Int(CommandLine.arguments.dropFirst().first ?? "20000") ?? 20000
let stream = ModelThroughput(seed: 1, count: count, poolSize: 300)
let tally = measured(stream)
print("steps \(stream.steps.count): accepted \(tally.accepted), rejected \(tally.rejected), events \(tally.events)")
/// The pass callgrind counts (recording the stream is not counted).
@inline(never) func measured(_ stream: ModelThroughput) -> ModelThroughput.Tally { stream.run() }
EOF
(cd "$out/src" && swiftc -O -wmo -module-name ModelBench -package-name containment ./*.swift -o "$out/model-bench")
nm "$out/model-bench" >"$out/symbols"
symbol="$(awk '/ModelBench8measured/ {print $3; exit}' "$out/symbols")"
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" --toggle-collect="$symbol" \
    "$out/model-bench" "$steps" 2>"$out/valgrind.log"
total="$(awk '/I *refs:/ {gsub(",", "", $NF); print $NF}' "$out/valgrind.log")"
echo "instructions: $total in all, $((total / steps)) per step ($steps steps)"
echo "profile: callgrind_annotate $out/callgrind.out"
