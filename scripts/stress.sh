#!/usr/bin/env bash
# Stress-tests the runtime with the release build: starts its own supervisor and hosts, lets concurrent clients send
# random commands (valid and invalid) and checks the run against the model (see docs/STRESS.md). Exits non-zero when a
# check fails.
#   scripts/stress.sh                 the full run: 8 hosts, 10,000 controllers, 32 clients, one minute, seed 1
#   scripts/stress.sh ARGS...         `containment stress ARGS...` (e.g. --hosts 3 --ops 5000 --seed 7 --json)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh build etcd >&2
# containment-etcd: every command of `containment` with etcd's client, so the replicated runs work too.
quiet_swift build -c release --product containment-etcd >&2
bin="$(swift build -c release --show-bin-path)/containment-etcd"

if [ "$#" -eq 0 ]; then
    set -- --hosts 8 --controllers 10000 --clients 32 --duration 60 --seed 1
fi
exec "$bin" stress "$@"
