#!/usr/bin/env bash
# A local etcd cluster for the replicated journal (journal: etcd; docs/DURABILITY.md, "Replicated"): each member a
# process of its own on loopback, with its data, log and pid file in DIR.
#
#   scripts/etcd.sh start DIR CLIENT-PORTS PEER-PORTS   e.g. start /tmp/run/etcd 2379,22379,32379 2380,22380,32380
#   scripts/etcd.sh stop DIR                            SIGTERM each member (SIGKILL after 2 s); pid files removed
#
# `start` returns once every member answers and the cluster has a leader, or fails naming the member that did not
# (its log's last lines). Members already running in DIR are left as they are (start is safe to run again).
set -euo pipefail

usage() { sed -n '2,9p' "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
action="$1" dir="$2"

member_pid() {  # member_pid NAME: the pid of a running member, or nothing
    local file="$dir/$1.pid" pid
    [ -f "$file" ] || return 0
    pid="$(cat "$file")"
    if kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

case "$action" in
start)
    [ $# -eq 4 ] || usage
    command -v etcd >/dev/null 2>&1 || { echo "etcd.sh: etcd is not installed (bash scripts/setup.sh etcd installs it)" >&2; exit 1; }
    IFS=, read -r -a clients <<<"$3"
    IFS=, read -r -a peers <<<"$4"
    [ ${#clients[@]} -eq ${#peers[@]} ] || { echo "etcd.sh: as many client ports as peer ports" >&2; exit 2; }
    mkdir -p "$dir"
    cluster=""
    for i in "${!clients[@]}"; do
        cluster+="${cluster:+,}member$((i + 1))=http://127.0.0.1:${peers[$i]}"
    done
    # The cluster's token: its directory, so two clusters on one machine never join each other.
    token="containment-$(echo "$dir" | cksum | cut -d' ' -f1)"
    for i in "${!clients[@]}"; do
        name="member$((i + 1))"
        [ -z "$(member_pid "$name")" ] || continue
        state=new
        [ ! -d "$dir/$name.data/member" ] || state=existing
        # Its own session, so a signal to a script's process group does not reach it unasked.
        setsid etcd --name "$name" --data-dir "$dir/$name.data" \
            --listen-client-urls "http://127.0.0.1:${clients[$i]}" \
            --advertise-client-urls "http://127.0.0.1:${clients[$i]}" \
            --listen-peer-urls "http://127.0.0.1:${peers[$i]}" \
            --initial-advertise-peer-urls "http://127.0.0.1:${peers[$i]}" \
            --initial-cluster "$cluster" --initial-cluster-token "$token" --initial-cluster-state "$state" \
            --max-request-bytes 4194304 --heartbeat-interval 50 --election-timeout 500 \
            >"$dir/$name.log" 2>&1 </dev/null &
        echo $! >"$dir/$name.pid"
    done
    for i in "${!clients[@]}"; do
        name="member$((i + 1))"
        for _ in $(seq 1 200); do
            # Healthy: the member answers and the cluster has a leader (a quorum read through the member).
            if curl -sf --max-time 1 "http://127.0.0.1:${clients[$i]}/health" 2>/dev/null | grep -q '"true"'; then
                continue 2
            fi
            if [ -z "$(member_pid "$name")" ]; then break; fi
            sleep 0.05
        done
        echo "etcd.sh: $name (client port ${clients[$i]}) did not become healthy; its log ends:" >&2
        tail -n 15 "$dir/$name.log" >&2
        exit 1
    done
    echo "etcd.sh: ${#clients[@]} members serving (client ports $3)" >&2
    ;;
stop)
    # All at once, then SIGKILL for any still running after 2 s: a member whose peers are stopping may wait ~7 s to hand
    # over its leadership, and etcd's write-ahead log makes a kill as safe as a stop (it loses nothing committed).
    shopt -s nullglob
    pids=()
    for file in "$dir"/member*.pid; do
        pid="$(member_pid "$(basename "$file" .pid)")"
        if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null && pids+=("$pid"); fi
    done
    for _ in $(seq 1 40); do
        alive=0
        for pid in "${pids[@]}"; do if kill -0 "$pid" 2>/dev/null; then alive=1; fi; done
        [ "$alive" -eq 1 ] || break
        sleep 0.05
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -f "$dir"/member*.pid
    ;;
*) usage ;;
esac
