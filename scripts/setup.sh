#!/usr/bin/env bash
# Installs what the build needs and the machine lacks: libzmq's headers (libzmq3-dev), pkg-config, curl, etcd (the
# replicated journal's store) and, as root, iproute2 for the network-namespace test, through apt,
# with sudo when not root. Safe to run again: it installs nothing that is already there.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! pkg-config --exists libzmq 2>/dev/null; then missing+=(libzmq3-dev); fi
# `curl` for the test that reads the supervisor's /metrics over HTTP.
command -v curl >/dev/null 2>&1 || missing+=(curl)
# `etcd` for the replicated journal (journal: etcd, scripts/etcd.sh) and its tests.
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
# `ip` for the network-namespace test (scripts/test-netns.sh), which needs root anyway.
if [ "$(id -u)" -eq 0 ] && ! command -v ip >/dev/null 2>&1; then missing+=(iproute2); fi

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH (Swift 6.2 or later is needed)" >&2; exit 1; }
pkg-config --exists libzmq || { echo "setup: libzmq is still missing after apt" >&2; exit 1; }
