#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, and run.
# For now: the seeds' three container listings played through the model, with their events.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh
quiet_swift build --product containment >&2
exec "$(swift build --show-bin-path)/containment" demo "$@"
