#!/usr/bin/env bash
# Starts a runtime in the background from this checkout: builds what is missing (containment; containment-etcd for a
# replicated runtime, journal: etcd; containment-web for the inspector, the metrics or the traces), then runs `containment up`,
# which does the rest — a replicated runtime's local etcd members, the supervisor(s), which start the topology's hosts
# (and start each again when it ends, per its restart settings), and returns once every host is connected; after a
# crash a supervisor recovers the tree from its journal and adopts the hosts still alive. `containment up --help` says
# how it fails.
#   scripts/up.sh [--inspector [PORT]] [TOPOLOGY]      (default: Config/topologies/menu.yaml)
# --inspector also starts `containment-web inspector` (the live web page, port 8080 by default) and prints its address;
# with metricsPort in runtime.yaml, `containment-web metrics` serves the supervisor's metrics there; with otlpEndpoint,
# `containment-web traces` exports the spans of traced commands to that OTLP/HTTP collector.
# TOPOLOGY and CONTAINMENT_CONFIG are read where the caller is, else in the checkout. Honours CONTAINMENT_RUN_DIR,
# CONTAINMENT_CONFIG (a runtime.yaml, read by every command) and CONTAINMENT_BIN. Stop with scripts/down.sh.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."
source scripts/lib.sh

# A path as the caller gave it: relative to where it ran, else (the default topology, say) to the checkout.
absolute() {
    case "$1" in
    /*) echo "$1" ;;
    *) if [ -e "$caller/$1" ]; then echo "$caller/$1"; else echo "$PWD/$1"; fi ;;
    esac
}
options=()
if [ "${1:-}" = "--inspector" ]; then
    shift
    options=(--inspector)
    if [[ "${1:-}" =~ ^[0-9]+$ ]]; then options+=(--inspector-port "$1"); shift; fi
fi
topology="$(absolute "${1:-Config/topologies/menu.yaml}")"
if [ -n "${CONTAINMENT_CONFIG:-}" ]; then CONTAINMENT_CONFIG="$(absolute "$CONTAINMENT_CONFIG")"; export CONTAINMENT_CONFIG; fi
bin="$(containment_bin)"
# A replicated runtime's supervisors run containment-etcd (etcd's client linked): built now when missing.
replication="$("$bin" config replication)" || exit 1
if [ -n "$replication" ]; then CONTAINMENT_ETCD_BIN="$(containment_etcd_bin)"; export CONTAINMENT_ETCD_BIN; fi
metrics="$(awk '/^metricsPort:/ {print $2}' "${CONTAINMENT_CONFIG:-/dev/null}" 2>/dev/null | tail -n 1)"
otlp="$(awk '/^otlpEndpoint:/ {gsub(/["\047]/, "", $2); print $2}' "${CONTAINMENT_CONFIG:-/dev/null}" 2>/dev/null | tail -n 1)"
if [ ${#options[@]} -gt 0 ] || { [ -n "$metrics" ] && [ "$metrics" != "0" ]; } || [ -n "$otlp" ]; then
    CONTAINMENT_WEB_BIN="$(containment_web_bin)"
    export CONTAINMENT_WEB_BIN
fi
exec "$bin" up "${options[@]}" "$topology"
