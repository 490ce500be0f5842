#!/usr/bin/env bash
# Starts the supervisor in the background, which starts the hosts of the topology (and starts each again when it ends,
# per the topology's restart settings for it, else runtime.yaml's hostRestart), with pid files and logs in the run directory, and returns once every host is
# connected. After a crash it starts only what is not running: a supervisor that died is started again (it recovers the
# tree from its journal) and hosts still alive are adopted, never duplicated.
#   scripts/up.sh [--inspector [PORT]] [TOPOLOGY]      (default: Config/topologies/menu.yaml)
# --inspector also starts `containment-web inspector` (the live web page, port 8080 by default) and prints its address;
# with metricsPort in runtime.yaml, `containment-web metrics` serves the supervisor's metrics there. containment-web is
# built first when it is missing.
# Honours CONTAINMENT_RUN_DIR and CONTAINMENT_CONFIG (a runtime.yaml, read by every command). Stop with scripts/down.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

inspector=""
if [ "${1:-}" = "--inspector" ]; then
    shift
    inspector=8080
    if [[ "${1:-}" =~ ^[0-9]+$ ]]; then inspector="$1"; shift; fi
fi
topology="${1:-Config/topologies/menu.yaml}"
run_dir="$(containment_run_dir)"
export CONTAINMENT_RUN_DIR="$run_dir"
bin="$(containment_bin)"

# A replicated runtime (runtime.yaml's journal: etcd): its supervisors, each with its own pid file and log, and the
# local etcd cluster to start first (`containment config replication`; nothing for a runtime journaling to a directory).
replication="$("$bin" config replication)" || exit 1
names="$(echo "$replication" | awk '$1 == "supervisor" {print $2}')"
# Its supervisors journal to etcd: `containment-etcd` runs them (the same commands, with etcd's client linked).
if [ -n "$names" ]; then bin="$(containment_etcd_bin)"; fi
etcd_ports="$(echo "$replication" | awk '$1 == "etcd" {print $2, $3}')"
# A supervisor's pid file names it while it runs; once it died, its number may be another process's (or thread's): that
# one must be a supervisor too.
for file in "$run_dir/supervisor.pid" "$run_dir"/supervisor-*.pid; do
    if pid_alive "$file" && grep -qa supervisor "/proc/$(cat "$file")/cmdline" 2>/dev/null; then
        echo "up: a supervisor already runs in $run_dir (pid $(cat "$file")); scripts/down.sh first" >&2
        exit 1
    fi
done
# With CURVE (a runtime.yaml with a curve section): the key pairs it names that do not exist yet.
if [ -n "${CONTAINMENT_CONFIG:-}" ] && grep -q '^curve:' "$CONTAINMENT_CONFIG"; then
    "$bin" keygen --topology "$topology" >/dev/null
fi
# The hosts the supervisor starts and up.sh waits for (remote ones register on their own). `topology` checks the
# file as the supervisor would apply it (names, limits, every command through the rules as one transaction) and exits 1
# with the reason: a topology the supervisor would refuse starts nothing.
hosts="$("$bin" topology --local "$topology")" || exit 1
mkdir -p "$run_dir/logs"
log="$run_dir/logs/supervisor.log"
# How long the supervisor may take to serve (recovery, a large topology) and its hosts to connect, while it runs.
timeout="${CONTAINMENT_UP_TIMEOUT:-120}"

kept=()
for host in $hosts; do
    if pid_alive "$run_dir/host-$host.pid"; then kept+=("$host (pid $(cat "$run_dir/host-$host.pid"))"); fi
done

# The supervisor starts the hosts (adopting those still running) and starts each again when it ends, per its restart
# policy. Of a replicated runtime's supervisors, the one that leads does.
supervisors=()
start_supervisor() {  # start_supervisor [NAME]: sets supervisor, log, log_start, pid_file
    local name="${1:-}"
    log="$run_dir/logs/supervisor${name:+-$name}.log"
    pid_file="$run_dir/supervisor${name:+-$name}.pid"
    log_start=1
    [ ! -f "$log" ] || log_start=$(($(wc -c <"$log") + 1))
    nohup "$bin" supervisor ${name:+--name "$name"} --topology "$topology" --start-hosts --pid-file "$pid_file" \
        >>"$log" 2>&1 &
    supervisor=$!
    supervisors+=("$supervisor")
}
any_supervisor_alive() {
    local pid
    for pid in "${supervisors[@]}"; do if process_alive "$pid"; then return 0; fi; done
    return 1
}

# A failed start: the supervisor's own reason (the errors it logged since this start), nothing left running.
fail_start() {  # fail_start WHAT
    local status=""
    if ! process_alive "$supervisor"; then
        wait "$supervisor" 2>/dev/null && status=0 || status=$?
    fi
    echo "up: $1${status:+ (the supervisor exited with status $status)}" >&2
    local reasons
    reasons="$(tail -c +"$log_start" "$log" 2>/dev/null | grep -E '(error|critical|Error:)' | tail -n 3)"
    if [ -n "$reasons" ]; then
        echo "up: the supervisor said:" >&2
        echo "$reasons" | sed 's/^/    /' >&2
    fi
    echo "up: its log: $log" >&2
    bash scripts/down.sh >/dev/null 2>&1 || true
    exit 1
}
trap 'fail_start "interrupted"' INT TERM

deadline=$((SECONDS + timeout))
# Serving (or, replicated, standing by) once its pid file names it; polled every 0.1 s, so a supervisor that exits is
# reported within a second.
wait_supervisor() {
    until [ "$(cat "$pid_file" 2>/dev/null)" = "$supervisor" ]; do
        process_alive "$supervisor" || fail_start "the supervisor did not start"
        [ "$SECONDS" -lt "$deadline" ] ||
            fail_start "the supervisor did not serve within $timeout s (CONTAINMENT_UP_TIMEOUT)"
        sleep 0.1
    done
}
if [ -z "$names" ]; then
    start_supervisor
    wait_supervisor
else
    if [ -n "$etcd_ports" ]; then
        # shellcheck disable=SC2086 # two words: the client ports, the peer ports
        bash scripts/etcd.sh start "$run_dir/etcd" $etcd_ports || { echo "up: etcd did not start" >&2; exit 1; }
    fi
    for name in $names; do
        start_supervisor "$name"
        wait_supervisor
    done
fi
[ ${#kept[@]} -eq 0 ] || echo "up: kept the hosts still running: ${kept[*]}"
until "$bin" wait --hosts "$(echo $hosts | tr ' ' ',')" --timeout 1 2>/dev/null; do
    any_supervisor_alive || fail_start "the supervisor ended before its hosts connected"
    # A host its restart policy gave up on (hostFailed) will not connect: said at once. The supervisor serves on (it
    # refuses commands for that host's controllers), as do the hosts that are up, until scripts/down.sh.
    failed="$(tail -c +"$log_start" "$log" 2>/dev/null | grep 'host failed: not restarted again' || true)"
    if [ -n "$failed" ]; then
        trap - INT TERM
        echo "up: a host failed at start and was given up on (its restart policy):" >&2
        echo "$failed" | sed 's/^/    /' >&2
        echo "up: the supervisor and the hosts that are up run on (commands for the failed host's controllers are" \
            "refused); its log is in $run_dir/logs/; scripts/down.sh stops them" >&2
        exit 1
    fi
    [ "$SECONDS" -lt "$deadline" ] || fail_start "hosts did not connect within $timeout s; see $run_dir/logs/"
done
trap - INT TERM
if [ -n "$names" ]; then
    echo "up: supervisors $(echo $names | tr '\n' ' ' | sed 's/ $//') (journal: etcd${etcd_ports:+, $(echo "${etcd_ports%% *}" | tr ',' '\n' | wc -l) local members}) and" \
        "$(echo $hosts | wc -w) hosts ($(echo $hosts | tr '\n' ' ' | sed 's/ $//')) in $run_dir"
else
    echo "up: supervisor and $(echo $hosts | wc -w) hosts ($(echo $hosts | tr '\n' ' ' | sed 's/ $//')) in $run_dir"
fi
# containment-web's servers, each waited for until it serves (its pid file): the inspector when asked, the metrics
# when runtime.yaml sets metricsPort (the supervisor keeps them; containment-web serves them over HTTP).
start_web() {  # start_web NAME ARGUMENTS...
    local name="$1"
    shift
    if pid_alive "$run_dir/$name.pid"; then
        echo "up: $name already runs (pid $(cat "$run_dir/$name.pid"))"
        return
    fi
    local web log="$run_dir/logs/$name.log" from=1 process
    web="$(containment_web_bin)"
    [ ! -f "$log" ] || from=$(($(wc -c <"$log") + 1))
    nohup "$web" "$name" "$@" --pid-file "$run_dir/$name.pid" >>"$log" 2>&1 &
    process=$!
    for _ in $(seq 1 100); do
        [ -f "$run_dir/$name.pid" ] && return
        process_alive "$process" || break
        sleep 0.1
    done
    # Not serving (a port in use, say): its reason, and nothing left running, as for a supervisor that does not start.
    echo "up: containment-web $name did not start; it said:" >&2
    tail -c +"$from" "$log" | tail -n 3 | sed 's/^/    /' >&2
    echo "up: its log: $log" >&2
    bash scripts/down.sh >/dev/null 2>&1 || true
    exit 1
}
metrics="$(awk '/^metricsPort:/ {print $2}' "${CONTAINMENT_CONFIG:-/dev/null}" 2>/dev/null | tail -n 1)"
if [ -n "$metrics" ] && [ "$metrics" != "0" ]; then
    start_web metrics
    echo "up: metrics at http://127.0.0.1:$metrics/metrics"
elif [ -n "$inspector" ]; then
    echo "up: metrics off (set metricsPort in runtime.yaml, CONTAINMENT_CONFIG)"
fi
if [ -n "$inspector" ]; then
    start_web inspector --port "$inspector"
    echo "up: inspector at http://127.0.0.1:$inspector/"
fi
