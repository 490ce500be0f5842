#!/usr/bin/env bash
# Measures a replicated runtime's failover (issue 29): Config/runtime-replicated.yaml brought up by scripts/up.sh
# (three local etcd members, supervisors a and b), then KILLS times: `kill -9` of the supervisor that leads, and the
# time from the kill to the first command accepted by the new leader (a `ctl create` retried until it is, each try a
# CLI start of a few ms). The killed one is started again as a standby before the next kill. Prints each time and
# the p50, p90 and max, in ms.
#   scripts/measure-failover.sh [KILLS]      (default 20; release build, or CONTAINMENT_ETCD_BIN)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
kills="${1:-20}"
# CONTAINMENT_ETCD_BIN: a release containment-etcd already built (of this checkout); else it is built.
bin="$(release_containment_etcd_bin)"
export CONTAINMENT_BIN="$bin" CONTAINMENT_ETCD_BIN="$bin"
run_dir="$(mktemp -d /tmp/containment-measure-XXXXXX)"
export CONTAINMENT_RUN_DIR="$run_dir" CONTAINMENT_CONFIG=Config/runtime-replicated.yaml
trap 'bash scripts/down.sh >/dev/null 2>&1 || true; rm -rf "$run_dir"' EXIT
bash scripts/up.sh >/dev/null
times=()
for i in $(seq 1 "$kills"); do
    leader="$("$bin" status 2>/dev/null | awk '$1 == "leader" {print $2}')"
    [ -n "$leader" ] && [ "$leader" != none ] || { echo "no leader before kill $i" >&2; exit 1; }
    start=$(date +%s%N)
    kill -KILL "$(cat "$run_dir/supervisor-$leader.pid")"
    until "$bin" ctl create "failover-$i" --kind content >/dev/null 2>&1; do :; done
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
    echo "kill $i: supervisor $leader; the first command accepted after $(((end - start) / 1000000)) ms"
    # The killed one again, as a standby (as up.sh starts it), before the next kill.
    rm -f "$run_dir/supervisor-$leader.pid"
    nohup "$bin" supervisor --name "$leader" --topology Config/topologies/menu.yaml --start-hosts \
        --pid-file "$run_dir/supervisor-$leader.pid" >>"$run_dir/logs/supervisor-$leader.log" 2>&1 &
    until [ -s "$run_dir/supervisor-$leader.pid" ]; do sleep 0.05; done
    until "$bin" status 2>/dev/null | grep -q "^standby $leader "; do sleep 0.05; done
done
printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END {
    printf "failover over %d kills: p50 %d ms, p90 %d ms, max %d ms\n", NR, t[int((NR + 1) / 2)], t[int(NR * 0.9 + 0.5)], t[NR] }'
