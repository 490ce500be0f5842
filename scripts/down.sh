#!/usr/bin/env bash
# Stops every daemon of the run directory with `containment down` (built first when missing): containment-web's
# servers, the supervisor(s) — a replicated runtime's standbys before its leader — which stop the hosts they started,
# any host left, any daemon of the run directory without a pid file (found by its CONTAINMENT_RUN_DIR), and a
# replicated runtime's local etcd members; then checks that no process, socket or pid file is left behind. Exit 1 if
# something had to be killed or cleaned, each said on standard error.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
exec "$(containment_bin)" down
