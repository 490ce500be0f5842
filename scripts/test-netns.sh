#!/usr/bin/env bash
# Across machines, simulated: the supervisor in one network namespace, its hosts in another, joined by a veth pair,
# over tcp:// with CURVE (Config/runtime-secure.yaml's keys and roles). Checks that the topology works end to end,
# that an observer's key cannot command, that a host's key cannot register under another name, and that a peer
# without a key gets nothing. Makes the namespaces and removes them; skipped, saying why, where they cannot be made
# (it needs root and iproute2's `ip`). However it ends (passed, failed, interrupted), it leaves no process behind: every
# process still in its namespaces is stopped before they are deleted; and a run that reaches the end fails if anything
# of it outlived the daemons' orderly stop.
#   CONTAINMENT_BIN=.build/debug/containment scripts/test-netns.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
bin="${CONTAINMENT_BIN:-$(containment_bin)}"

tag="cn$$"
ns_sup="$tag-sup"
ns_host="$tag-host"
if ! command -v ip >/dev/null || ! ip netns add "$ns_sup" 2>/dev/null; then
    echo "test-netns: skipped: cannot make a network namespace here (needs root and iproute2)"
    exit 0
fi
run=""
pids=()  # the daemons started in the background, by their own pids
# Stops every process this script started, then removes what it made. The daemons' pids alone are not enough (hosts
# started through a shell function once left `$!` naming the function's subshell, and outlived the script in a deleted
# namespace), so after them (and any background subshell) every process still in either namespace is stopped
# too: a check's client, whatever an interrupt cut short. SIGTERM, 5 s, SIGKILL; only then the namespaces go, since
# deleting one only drops its name and leaves its processes running.
cleanup() {
    local status=$? ns left
    trap - EXIT INT TERM HUP
    set +e
    [ ${#pids[@]} -eq 0 ] || stop_processes "${pids[@]}"
    mapfile -t left < <(jobs -p)
    [ ${#left[@]} -eq 0 ] || stop_processes "${left[@]}"
    for ns in "$ns_sup" "$ns_host"; do
        mapfile -t left < <(ip netns pids "$ns" 2>/dev/null)
        [ ${#left[@]} -eq 0 ] || stop_processes "${left[@]}"
    done
    ip netns del "$ns_sup" 2>/dev/null
    ip netns del "$ns_host" 2>/dev/null
    [ -z "$run" ] || rm -rf "$run"
    exit "$status"
}
trap cleanup EXIT
# A signal ends the script through its EXIT trap, and so through the cleanup.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
run="$(mktemp -d /tmp/containment-netns-XXXXXX)"
ip netns add "$ns_host"
ip link add "$tag-a" type veth peer name "$tag-b"
ip link set "$tag-a" netns "$ns_sup"
ip link set "$tag-b" netns "$ns_host"
ip -n "$ns_sup" addr add 10.77.0.1/24 dev "$tag-a"
ip -n "$ns_host" addr add 10.77.0.2/24 dev "$tag-b"
for ns in "$ns_sup" "$ns_host"; do
    ip -n "$ns" link set lo up
done
ip -n "$ns_sup" link set "$tag-a" up
ip -n "$ns_host" link set "$tag-b" up

# The secure configuration, over tcp on the veth pair.
topology="$run/topology.yaml"
cat >"$topology" <<'YAML'
controllers:
  - {id: box, kind: content, host: h0}
  - {id: late, kind: content, host: h1, parent: box}
YAML
config="$run/runtime.yaml"
{
    echo "command: tcp://10.77.0.1:5570"
    echo "events: tcp://10.77.0.1:5571"
    echo "requestTimeoutMs: 3000"
    cat Config/runtime-secure.yaml
} >"$config"
export CONTAINMENT_RUN_DIR="$run" CONTAINMENT_CONFIG="$config"
"$bin" keygen --topology "$topology" >/dev/null

failures=0
check() {  # check DESCRIPTION COMMAND...: passes when the command succeeds
    local what="$1"
    shift
    if "$@" >"$run/out" 2>&1; then
        echo "PASS  $what"
    else
        echo "FAIL  $what"
        sed 's/^/      /' "$run/out" | tail -5
        failures=$((failures + 1))
    fi
}
in_host() { ip netns exec "$ns_host" "$@"; }

# The daemons are started with `ip netns exec` itself, not through in_host: `ip` execs the daemon in its own process,
# so `$!` is the daemon's pid (through the function it would be a subshell's).
mkdir -p "$run/logs"
ip netns exec "$ns_sup" "$bin" supervisor --topology "$topology" --pid-file "$run/supervisor.pid" \
    >>"$run/logs/supervisor.log" 2>&1 &
pids+=($!)
for host in h0 h1; do
    ip netns exec "$ns_host" "$bin" host --name "$host" --pid-file "$run/host-$host.pid" \
        >>"$run/logs/host-$host.log" 2>&1 &
    pids+=($!)
done

check "both hosts register from their own namespace, over tcp with CURVE" \
    in_host "$bin" wait --hosts h0,h1 --timeout 20
check "an operator's key commands across the namespaces" \
    in_host "$bin" ctl set-frame late 0,0,50,50 --quiet
sleep 0.3
check "the host in the other namespace got the callbacks" \
    in_host bash -c "'$bin' inspect late | grep -q 'viewDidLayoutSubviews(late)'"

# An observer's key reads but cannot command.
sed 's#{run}/keys/operator"#{run}/keys/observer"#' "$config" >"$run/observer.yaml"
grep -q 'keys/observer"' "$run/observer.yaml"
check "an observer's key reads the tree" in_host env CONTAINMENT_CONFIG="$run/observer.yaml" "$bin" tree
check "an observer's key cannot command (unauthorized)" in_host bash -c \
    "CONTAINMENT_CONFIG='$run/observer.yaml' '$bin' ctl set-alpha box 0.5 2>&1 | grep -q unauthorized"

# A host's key cannot register under another name: every host name here uses h0's key pair.
sed 's#{run}/keys/host-{host}"#{run}/keys/host-h0"#' "$config" >"$run/stolen.yaml"
CONTAINMENT_CONFIG="$run/stolen.yaml" ip netns exec "$ns_host" "$bin" host --name h9 >"$run/logs/host-h9.log" 2>&1 &
pids+=($!)
sleep 2
check "h0's key cannot register as h9 (refused, and h9 never up)" in_host bash -c \
    "grep -q 'This key registers host h0 only' '$run/logs/host-h9.log' && ! '$bin' wait --hosts h9 --timeout 1"

# No key at all: no answer, no event.
grep -v '^curve:\|^  \|^#' "$config" | grep -v '^$' >"$run/nokey.yaml"
check "a peer without a key gets no answer (the same peer with a key does)" in_host bash -c \
    "! CONTAINMENT_CONFIG='$run/nokey.yaml' timeout 20 '$bin' tree && '$bin' tree >/dev/null"
# Two subscribers at once, with and without a key, while an event is published: only the keyed one sees it.
cat >"$run/watch-check.sh" <<CHECK
CONTAINMENT_CONFIG='$run/nokey.yaml' timeout 20 '$bin' watch --json --idle-timeout 3 >'$run/nokey-events' 2>&1 &
deaf=\$!
timeout 20 '$bin' watch --json --idle-timeout 3 >'$run/keyed-events' 2>&1 &
keyed=\$!
sleep 1
'$bin' ctl set-alpha box 0.25 --quiet
wait \$deaf \$keyed
grep -q alphaChanged '$run/keyed-events' && ! grep -q alphaChanged '$run/nokey-events'
CHECK
check "a subscriber without a key gets no event (one with a key does)" in_host bash "$run/watch-check.sh"

# The orderly stop: SIGTERM to every daemon started, and up to 10 s for them to end (as scripts/down.sh allows). Then
# nothing of this run may be left: no process in either namespace, none anywhere with its CONTAINMENT_RUN_DIR. What
# is left is named here; the cleanup stops it.
kill -TERM "${pids[@]}" 2>/dev/null || true
for _ in $(seq 1 100); do
    alive=0
    for pid in "${pids[@]}"; do if process_alive "$pid"; then alive=1; fi; done
    [ "$alive" -eq 1 ] || break
    sleep 0.1
done
left=()
for ns in "$ns_sup" "$ns_host"; do
    mapfile -t -O "${#left[@]}" left < <(ip netns pids "$ns")
done
for pid in $(run_dir_daemons "$run" '[a-z-]+'); do
    [[ " ${left[*]} " == *" $pid "* ]] || left+=("$pid")
done
if [ ${#left[@]} -eq 0 ]; then
    echo "PASS  nothing is left running once the daemons are stopped (namespaces, CONTAINMENT_RUN_DIR)"
else
    echo "FAIL  nothing is left running once the daemons are stopped; still running (${#left[@]}):"
    for pid in "${left[@]}"; do echo "      $(describe_process "$pid")"; done
    failures=$((failures + 1))
fi

if [ "$failures" -gt 0 ]; then
    echo "test-netns: $failures failed; logs:"
    tail -n 5 "$run"/logs/*.log
    exit 1
fi
echo "test-netns: every check passed"
