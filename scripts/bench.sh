#!/usr/bin/env bash
# Benchmarks on this machine: installs what is missing, builds the release binary, runs `containment bench` (the
# model alone, raw libzmq between two processes, and Containment through a real supervisor and hosts, each figure
# beside its baseline, with the targets). Arguments go to `containment bench`:
#   scripts/bench.sh                 # the full run (a few minutes)
#   scripts/bench.sh --quick         # a smoke run (seconds)
#   scripts/bench.sh --json          # the figures as JSON
# See docs/BENCH.md for what each figure measures.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh build etcd redis-server redis-benchmark redis-cli
# containment-etcd: every command of `containment` with etcd's client, so the replicated runs work too.
quiet_swift build -c release --product containment-etcd >&2
bin="$(swift build -c release --show-bin-path)/containment-etcd"
exec "$bin" bench "$@"
