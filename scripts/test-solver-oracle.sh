#!/usr/bin/env bash
# The layout solver (Sources/Cassowary) against kiwisolver, the Python binding of the reference C++ implementation:
# scripts/solver-oracle.py runs the same random systems through both and compares every verdict and value.
#   scripts/test-solver-oracle.sh [SYSTEMS [SEED]]      (10,000 systems, seed 1)
# Installs what is missing: python3's venv (scripts/setup.sh) and kiwisolver into the virtualenv the Python tests use
# (.build/python-venv). Uses the built `cassowary-script` (swift build --show-bin-path), building it only when it is
# missing. Exits with the comparison's status.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh python:ensurepip

venv="$(python_venv)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'kiwisolver>=1.4'

bin="$(swift build --show-bin-path 2>/dev/null)/cassowary-script"
[ -x "$bin" ] || quiet_swift build --product cassowary-script >&2
"$venv/bin/python" scripts/solver-oracle.py --bin "$bin" --systems "${1:-10000}" --seed "${2:-1}"
