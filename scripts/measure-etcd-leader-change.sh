#!/usr/bin/env bash
# Measures what etcd electing a new raft leader costs a replicated runtime (issue 42): Config/runtime-replicated.yaml
# brought up by scripts/up.sh, then TRIES times: `kill -9` of the etcd member that leads the raft group (a majority
# kept), the time until a remaining member reports a leader again (etcd's election), the time until a `ctl create`
# is accepted, and whether the supervisors' leadership changed (their logs: a lease that lapsed, a new leader). The
# killed member is started again before the next try. Exits 1 when any try cost a failover.
#   scripts/measure-etcd-leader-change.sh [TRIES]      (default 5; release build, or CONTAINMENT_ETCD_BIN)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
tries="${1:-5}"
bin="$(release_containment_etcd_bin)"
export CONTAINMENT_BIN="$bin" CONTAINMENT_ETCD_BIN="$bin"
command -v etcdctl >/dev/null || bash scripts/setup.sh etcdctl >&2
run_dir="$(mktemp -d /tmp/containment-measure-XXXXXX)"
export CONTAINMENT_RUN_DIR="$run_dir" CONTAINMENT_CONFIG="${CONTAINMENT_CONFIG:-Config/runtime-replicated.yaml}"
trap 'bash scripts/down.sh >/dev/null 2>&1 || true; rm -rf "$run_dir"' EXIT
bash scripts/up.sh >/dev/null
# The local members' client ports, and their peer ports (each client port plus one), as up.sh started them.
read -r clients peers <<<"$("$bin" config replication | awk '$1 == "etcd" {print $2, $3}')"
endpoints="$(echo "$clients" | tr ',' '\n' | sed 's|^|http://127.0.0.1:|' | tr '\n' ',')"
endpoints="${endpoints%,}"
leads() { grep -h "supervisor leads" "$run_dir"/logs/supervisor-*.log | wc -l; }
failovers=0
for i in $(seq 1 "$tries"); do
    sleep 2
    before="$(leads)"
    leader="$(ETCDCTL_API=3 etcdctl --endpoints="$endpoints" endpoint status -w json | python3 -c '
import json, sys
for m in json.load(sys.stdin):
    if m["Status"]["header"]["member_id"] == m["Status"]["leader"]: print(m["Endpoint"].rsplit(":", 1)[1])')"
    member="$(echo "$clients" | tr ',' '\n' | grep -n "^$leader\$" | cut -d: -f1)"
    start=$(date +%s%N)
    kill -KILL "$(cat "$run_dir/etcd/member$member.pid")"
    others="$(echo "$clients" | tr ',' '\n' | grep -v "^$leader\$")"
    healthy() { for port in $others; do curl -sf --max-time 0.2 "http://127.0.0.1:$port/health" | grep -q '"true"' && return 0; done; return 1; }
    until healthy; do :; done
    elected=$((($(date +%s%N) - start) / 1000000))
    until "$bin" ctl create "etcd-leader-$i" --kind content >/dev/null 2>&1; do :; done
    accepted=$((($(date +%s%N) - start) / 1000000))
    sleep 2
    changed=no
    if [ "$(leads)" != "$before" ] || grep -q "lease lapsed" "$run_dir"/logs/supervisor-*.log; then changed=yes; failovers=$((failovers + 1)); fi
    echo "try $i: killed etcd member$member (the raft leader); etcd elected another in $elected ms; a command accepted after $accepted ms; supervisor failover: $changed"
    bash scripts/etcd.sh start "$run_dir/etcd" "$clients" "$peers" >/dev/null 2>&1 || { echo "etcd member$member did not start again" >&2; exit 1; }
done
echo "etcd leader changes: $tries, supervisor failovers: $failovers"
[ "$failovers" -eq 0 ]
