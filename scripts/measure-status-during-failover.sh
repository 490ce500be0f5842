#!/usr/bin/env bash
# Samples `containment status` of a replicated runtime (Config/runtime-replicated.yaml, scripts/up.sh) every 0.1 s
# while the leading supervisor is killed (`kill -9`) every 5 s, KILLS times, etcd healthy throughout (issue 42): how
# often status claims etcd has no majority, says no supervisor answered, or exits 3, and how often it exits 1 (a host
# not yet registered with the new leader is down: degraded). The killed one is started again as a standby.
#   scripts/measure-status-during-failover.sh [KILLS]      (default 8; release build, or CONTAINMENT_ETCD_BIN)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
kills="${1:-8}"
bin="$(release_containment_etcd_bin)"
export CONTAINMENT_BIN="$bin" CONTAINMENT_ETCD_BIN="$bin"
run_dir="$(mktemp -d /tmp/containment-measure-XXXXXX)"
export CONTAINMENT_RUN_DIR="$run_dir" CONTAINMENT_CONFIG=Config/runtime-replicated.yaml
samples="$run_dir/status-samples.txt"
sampler=""
trap '[ -z "$sampler" ] || kill "$sampler" 2>/dev/null; bash scripts/down.sh >/dev/null 2>&1 || true; rm -rf "$run_dir"' EXIT
bash scripts/up.sh >/dev/null
(
    while true; do
        status=0
        out="$("$bin" status 2>&1)" || status=$?
        printf '== exit %s\n%s\n' "$status" "$out"
        sleep 0.1
    done
) >"$samples" &
sampler=$!
for _ in $(seq 1 "$kills"); do
    sleep 5
    leader="$("$bin" status 2>/dev/null | awk '$1 == "leader" {print $2}')" || true
    [ -n "$leader" ] && [ "$leader" != none ] || continue
    kill -KILL "$(cat "$run_dir/supervisor-$leader.pid")"
    rm -f "$run_dir/supervisor-$leader.pid"
    nohup "$bin" supervisor --name "$leader" --topology Config/topologies/menu.yaml --start-hosts \
        --pid-file "$run_dir/supervisor-$leader.pid" >>"$run_dir/logs/supervisor-$leader.log" 2>&1 &
done
sleep 5
kill "$sampler"
sampler=""
count() { grep -c "$1" "$samples" || true; }
echo "status sampled $(count '^== exit') times over $kills leader kills (etcd healthy):" \
    "'no majority' $(count majority), 'none answered' $(count 'none answered'), exit 3 $(count '^== exit 3')," \
    "exit 1 $(count '^== exit 1') (of them degraded: $(count '^degraded'))"
