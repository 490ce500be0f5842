#!/usr/bin/env bash
# All the tests on a fresh machine: install what is missing, check the format, build with warnings as errors,
# run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh

echo "== format (swift format lint --strict)"
swift format lint --strict --recursive Package.swift Sources Tests

echo "== build (warnings are errors)"
quiet_swift build --build-tests

echo "== tests"
quiet_swift test --skip-build

echo "== the protocol from another language (Python, pyzmq)"
bash scripts/test-python-client.sh

echo "== the inspector in a real browser (headless Chromium over the DevTools protocol)"
bash scripts/test-inspector-browser.sh

echo "== across network namespaces (tcp with CURVE; skipped where namespaces cannot be made)"
bash scripts/test-netns.sh

echo "== fuzzing (libFuzzer with AddressSanitizer, 10 s per target; scripts/fuzz.sh SECONDS for longer)"
bash scripts/fuzz.sh 30
