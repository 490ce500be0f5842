#!/usr/bin/env bash
# The inspector in a real browser (Tests/browser/inspector_in_chromium.py): headless Chromium loads the page of a
# running runtime and checks the rendered DOM, before and after a `ctl` change.
#   scripts/test-inspector-browser.sh [--screenshot PATH]
# Installs what is missing: chromium (scripts/setup.sh) and websocket-client (in the virtualenv .build/python-venv
# that scripts/test-python-client.sh uses). Uses the built `containment` binary.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh chromium python:ensurepip

venv=".build/python-venv"
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p .build
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import websocket' >/dev/null 2>&1; then
    echo "test-inspector-browser: installing websocket-client into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'websocket-client>=1.6'
fi

CONTAINMENT_BIN="${CONTAINMENT_BIN:-$(containment_bin)}"
export CONTAINMENT_BIN
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" Tests/browser/inspector_in_chromium.py "$@"
