#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, start the supervisor and the hosts of the default
# topology (seed 004's menu container, each child in its own process), drive a short scenario through `ctl` (a
# selection swap, a rejected frame change, the menu shown, another selection, a rotation, a memory warning), show the
# events from the topology's first (the journal replayed; `watch` saw the scenario's live) and the `tree`, and stop
# everything.
#   scripts/run.sh [TOPOLOGY]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh
echo "== building containment (debug) — a first build on a fresh clone fetches and compiles every dependency, about 3" >&2
echo "   minutes on 2 cores (no etcd client: that is containment-etcd's); later builds take seconds" >&2
mkdir -p .build
build_with_progress .build/run-build.log --product containment
bin="$(swift build --show-bin-path)/containment"
topology="${1:-Config/topologies/menu.yaml}"
# A fresh run directory, so the scenario starts from the topology (a run directory keeps its journal, and a supervisor
# started on it recovers the tree it left); CONTAINMENT_RUN_DIR chooses one instead, and then the run goes on from it.
if [ -z "${CONTAINMENT_RUN_DIR:-}" ]; then
    CONTAINMENT_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/containment-run-XXXXXX")"
fi
export CONTAINMENT_RUN_DIR

trap 'bash scripts/down.sh >/dev/null || true' EXIT
bash scripts/up.sh "$topology"

watch_log="$CONTAINMENT_RUN_DIR/logs/run-watch.log"
"$bin" watch --idle-timeout 2 >"$watch_log" 2>&1 &
watcher=$!
sleep 0.3

step() { printf '\n$ containment %s\n' "$*"; "$bin" "$@" || true; }
echo
echo "== the scenario"
step ctl select menu 1
step ctl set-frame second 0,0,10,10 --by second
step ctl menu-visible menu true --quiet
step ctl select menu third --quiet
step ctl rotate main portrait --quiet
step ctl memory-warning --quiet
wait "$watcher" || true

echo
echo "== every event, from the topology's first (containment journal events: the journal replayed through the model)"
echo "   seq  event(controller) and its fields"
events_log="$CONTAINMENT_RUN_DIR/logs/run-events.log"
"$bin" journal events | tee "$events_log"
# watch, started once the topology was applied, saw the scenario's events live: the journal's own lines (but for a
# rejection's ruleViolation, of which the journal keeps the code and message, not the whole event).
live="$(grep -E '^ *[0-9]+  ' "$watch_log" | grep -v ruleViolation || true)"
seen=$(grep -cE '^ *[0-9]+  ' "$watch_log" || true)
if [ -n "$live" ] && grep -vxFf "$events_log" <<<"$live" >/dev/null; then
    echo "run: containment watch saw events the journal does not hold:" >&2
    grep -vxFf "$events_log" <<<"$live" >&2
    exit 1
fi
echo "   (containment watch, started after the topology was applied, saw the last $seen of them live)"
echo
echo "== the tree (containment tree)"
"$bin" tree
echo
echo "== what one actor received (containment inspect second)"
"$bin" inspect second
echo
bash scripts/down.sh
trap - EXIT
