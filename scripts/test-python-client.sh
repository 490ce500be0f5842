#!/usr/bin/env bash
# The Python client test: the client package clients/python (written from docs/PROTOCOL.md alone) talks to a real
# runtime.
#   scripts/test-python-client.sh [PYTEST ARGS...]
# Installs what is missing: protoc and python3's venv (scripts/setup.sh; the tests compare the committed
# containment_pb2.py with protoc's output) and a virtualenv under .build/python-venv. Then installs ./clients/python (with
# its dependencies pyzmq and protobuf 4.x, fetched when missing) and pytest into it, the package every time, so that the
# tests import it as it is now. Uses the built `containment` binary (CONTAINMENT_BIN, or swift build --show-bin-path),
# building it only when it is missing. test_typed_calls.py runs GridApp's host (Examples/GridApp/.build/debug/GridHost):
# skipped when it is not built, failed instead with CONTAINMENT_REQUIRE_GRID=1 (scripts/test.sh builds it first).
# Exits with pytest's status.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh protoc python:ensurepip

venv="$(python_venv)"
# pip installs a local directory again each time. Its backend (flit_core) builds out of tree: the install writes
# nothing beside the sources, as a user's `pip install ./clients/python` must not (what an older setuptools install
# left goes first).
rm -rf clients/python/build clients/python/*.egg-info
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./clients/python 'pytest>=7'
if compgen -G 'clients/python/build' >/dev/null || compgen -G 'clients/python/*.egg-info' >/dev/null; then
    echo "test-python-client: pip install wrote build files into clients/python" >&2
    exit 1
fi

if [ -z "${CONTAINMENT_BIN:-}" ]; then
    CONTAINMENT_BIN="$(containment_bin)"
fi
[ -x "$CONTAINMENT_BIN" ] || { echo "test-python-client: no containment binary at $CONTAINMENT_BIN" >&2; exit 1; }
export CONTAINMENT_BIN

export PYTHONDONTWRITEBYTECODE=1
status=0
"$venv/bin/python" -m pytest -p no:cacheprovider "${@:--q}" clients/python/tests || status=$?
exit $status
