#!/usr/bin/env bash
# Stops every daemon of the run directory with SIGTERM (the supervisor first, which would restart hosts, then the
# hosts), waits for them, and
# checks that no process, socket or pid file is left behind. Daemons are found by their pid files and also by their
# environment (CONTAINMENT_RUN_DIR), so one whose pid file is missing or stale is stopped too. Exit 1 if something
# had to be killed or cleaned, or a daemon had no pid file.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

run_dir="$(containment_run_dir)"
[ -d "$run_dir" ] || { echo "down: nothing runs in $run_dir"; exit 0; }
status=0

stop() {  # stop PIDFILE
    local file="$1" pid
    pid="$(cat "$file" 2>/dev/null)" || return 0
    if ! process_alive "$pid"; then
        echo "down: $(basename "$file" .pid) (pid $pid) was not running; removing its stale pid file" >&2
        rm -f "$file"
        status=1
        return 0
    fi
    kill -TERM "$pid"
    for _ in $(seq 1 100); do
        process_alive "$pid" || break
        sleep 0.1
    done
    if process_alive "$pid"; then
        echo "down: $(basename "$file" .pid) (pid $pid) ignored SIGTERM for 10 s; killing it" >&2
        kill -KILL "$pid"
        rm -f "$file"
        status=1
    fi
}

stop_pid() {  # stop_pid PID NAME: a daemon of this run directory that no pid file names
    local pid="$1"
    echo "down: $2 (pid $pid) runs without a pid file; stopping it" >&2
    status=1
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 100); do
        process_alive "$pid" || return 0
        sleep 0.1
    done
    echo "down: $2 (pid $pid) ignored SIGTERM for 10 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null
}

shopt -s nullglob
# The inspector and the metrics (clients, containment-web) first.
for web in inspector metrics; do
    [ -f "$run_dir/$web.pid" ] && stop "$run_dir/$web.pid"
    for pid in $(run_dir_daemons "$run_dir" "$web"); do stop_pid "$pid" "$web"; done
done
# The supervisor next: it would start a stopped host again (hostRestart). A replicated runtime's standbys first (one
# stopped leader hands over to a standby at once), then its leader.
leads() {  # leads LOG: the supervisor's last word is that it leads
    local said
    said="$(grep -oE 'supervisor leads|no longer leads' "$1" 2>/dev/null | tail -n 1)"
    [ "$said" = "supervisor leads" ]
}
leader_last=()
for file in "$run_dir"/supervisor-*.pid; do
    if leads "$run_dir/logs/$(basename "$file" .pid).log"; then leader_last+=("$file"); else stop "$file"; fi
done
for file in "${leader_last[@]}"; do stop "$file"; done
[ -f "$run_dir/supervisor.pid" ] && stop "$run_dir/supervisor.pid"
for pid in $(run_dir_daemons "$run_dir" supervisor); do stop_pid "$pid" supervisor; done
for file in "$run_dir"/host-*.pid; do stop "$file"; done
for pid in $(run_dir_daemons "$run_dir" host); do stop_pid "$pid" host; done
# The local etcd cluster of a replicated runtime (scripts/up.sh started it), last: its data stays.
if [ -d "$run_dir/etcd" ]; then bash scripts/etcd.sh stop "$run_dir/etcd"; fi

left=("$run_dir"/*.pid "$run_dir"/*.sock)
if [ ${#left[@]} -gt 0 ]; then
    echo "down: left behind, now removed: ${left[*]}" >&2
    rm -f "${left[@]}"
    status=1
fi
[ $status -eq 0 ] && echo "down: stopped; nothing left in $run_dir but logs, the journal and the lock file"
exit $status
