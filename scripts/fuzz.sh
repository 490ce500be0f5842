#!/usr/bin/env bash
# Fuzzes everything that decodes untrusted bytes (Sources/ContainmentFuzz, UntrustedInput): command-socket messages,
# journal segments (raw and framed records replayed through the model) and configuration text — each target for
# SECONDS/3 seconds with libFuzzer and AddressSanitizer, from the seed corpus in Fuzz/corpus (new inputs are kept in
# .build/fuzz-corpus). Prints each target's executions; exits 1 on a crash, leaving the input as .build/fuzz-crash-*.
# Leak detection is off: the one leak it reports is Foundation's own (4 KiB per String(contentsOfFile:) of an empty
# file, in FoundationEssentials), not this code's; crashes, timeouts (10 s an input) and 2 GiB of memory still fail.
#   scripts/fuzz.sh [SECONDS]     (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
seconds="${1:-60}"
per=$(( seconds / 3 > 0 ? seconds / 3 : 1 ))

quiet_swift build --product ContainmentFuzz --scratch-path .build/fuzz --sanitize=fuzzer --sanitize=address \
    -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address
bin=".build/fuzz/debug/ContainmentFuzz"

total=0
for target in command journal config; do
    corpus=".build/fuzz-corpus/$target"
    mkdir -p "$corpus"
    log=".build/fuzz-$target.log"
    # No Swift backtracer: libFuzzer reports a crash itself, and the backtracer would take minutes over it.
    if ! CONTAINMENT_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin" -max_total_time="$per" -max_len=4096 \
        -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -artifact_prefix=".build/fuzz-crash-$target-" "$corpus" "Fuzz/corpus/$target" \
        >"$log" 2>&1; then
        echo "fuzz: $target CRASHED; see $log and .build/fuzz-crash-$target-*" >&2
        tail -n 30 "$log" >&2
        exit 1
    fi
    runs="$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)"
    total=$(( total + ${runs:-0} ))
    echo "fuzz: $target: ${runs:-?} executions in ${per} s, clean ($(ls "$corpus" | wc -l) inputs in its corpus)"
done
echo "fuzz: $total executions, clean"
