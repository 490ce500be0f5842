#!/usr/bin/env bash
# The JSON Schemas of the files a user writes (docs/schema/: the topology, runtime.yaml): every YAML of the project
# holds to its schema, names it on its first line, and a misspelt key is flagged (scripts/check-schemas.py).
# Installs what is missing: python3's venv (scripts/setup.sh) and jsonschema and PyYAML from PyPI into the virtualenv
# the Python tests use (.build/python-venv). Exits with the check's status.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh python:ensurepip

venv="$(python_venv)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'jsonschema>=4.18' 'PyYAML>=6'
"$venv/bin/python" scripts/check-schemas.py
