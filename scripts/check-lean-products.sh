#!/usr/bin/env bash
# Issue 44's lean products, checked on what was linked: an executable holds the symbols of every module in its
# dependency closure (SwiftPM links each target's objects), so a module absent from its symbols was not built into it.
#   - `containment` holds no etcd client: no ContainmentEtcd, gRPC, SwiftNIO or BoringSSL (`containment-etcd` does);
#   - an app's host (GridApp's GridHost, built on the ContainmentHost product) holds no supervisor, journal, etcd,
#     systemd, benchmark or stress code: no ContainmentRuntime, ContainmentEtcd, ContainmentBench, ContainmentLoad.
#   scripts/check-lean-products.sh [CONTAINMENT] [GRIDHOST] [CONTAINMENT_ETCD]   (default: the debug builds)
set -euo pipefail
cd "$(dirname "$0")/.."

containment="${1:-.build/debug/containment}"
gridhost="${2:-Examples/GridApp/.build/debug/GridHost}"
etcd="${3:-.build/debug/containment-etcd}"
failed=0

# modules_in BINARY: the Swift modules named by its defined symbols (a mangled name starts with $s, then the module's
# name's length and the name; the standard library's own short forms are left out).
modules_in() {
    nm --defined-only "$1" | awk '{print $NF}' | grep -oE '^\$s[0-9]+[A-Za-z_][A-Za-z0-9_]*' \
        | python3 -c '
import re, sys
names = set()
for line in sys.stdin:
    match = re.match(r"\$s(\d+)(.*)", line.strip())
    length, rest = int(match.group(1)), match.group(2)
    if len(rest) >= length:
        names.add(rest[:length])
print("\n".join(sorted(names)))'
}

# expect BINARY WHAT PRESENT ABSENT...: PRESENT must be there (the scan reads the right file), no ABSENT may be.
expect() {
    local binary="$1" what="$2" present="$3" modules found=()
    shift 3
    [ -x "$binary" ] || { echo "check-lean-products: no $what at $binary" >&2; exit 1; }
    modules="$(modules_in "$binary")"
    grep -qx "$present" <<<"$modules" || { echo "FAIL $what: no symbol of $present — is $binary the right file?" >&2; exit 1; }
    for module in "$@"; do
        if grep -qx "$module" <<<"$modules"; then found+=("$module"); fi
    done
    if [ ${#found[@]} -gt 0 ]; then
        echo "FAIL $what ($binary) links ${found[*]}" >&2
        failed=1
    else
        echo "ok   $what links none of: $*"
    fi
}

expect "$containment" containment ContainmentCommands ContainmentEtcd GRPCCore GRPCNIOTransportCore NIOCore NIOSSL
expect "$gridhost" "GridApp's host" ContainmentHost ContainmentRuntime ContainmentEtcd ContainmentBench ContainmentLoad \
    ContainmentSimulation CoreMetrics
if [ -x "$etcd" ]; then
    expect "$etcd" "containment-etcd (the check's own control: it must link etcd's client)" ContainmentEtcd \
        ContainmentWeb
    # Read whole before grep looks (grep -q stops at the first match, and a writer still writing gets SIGPIPE).
    etcd_modules="$(modules_in "$etcd")"
    grep -qx GRPCCore <<<"$etcd_modules" || { echo "FAIL containment-etcd links no GRPCCore" >&2; failed=1; }
fi
exit "$failed"
