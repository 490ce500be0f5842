#!/usr/bin/env bash
# All the tests on a fresh machine: install what is missing, check the format, build with warnings as errors,
# run every test. Fails too when the tests leave a daemon running (see below).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

# A test that leaves a daemon running still passes on its own (hosts of test-netns.sh once ran on, orphaned, minutes
# after a green run). So however this run ends (passed, failed, interrupted), every daemon of this checkout's
# build or of a test's run directory still running at the end (lib.sh's leftover_daemons) is named, stopped, and fails
# the run. Those already running before it (a developer's own runtime, say) are not the tests': named, and left alone.
repo="$(pwd -P)"
mapfile -t before < <(leftover_daemons "$repo")
if [ ${#before[@]} -gt 0 ]; then
    echo "test: ${#before[@]} daemons of this checkout ran before the tests (not counted, left running):"
    for pid in "${before[@]}"; do echo "  $(describe_process "$pid")"; done
fi
# Each section's wall time, printed as a table when the run ends (however it ends): where CI's minutes go.
sections=()
section_started=$SECONDS
section_name=""
section() {
    end_section
    section_name="$1"
    section_started=$SECONDS
    echo "== $1"
}
end_section() {
    [ -z "$section_name" ] || sections+=("$(printf '%5d s  %s' $((SECONDS - section_started)) "${section_name%% (*}")")
    section_name=""
}
check_leftovers() {
    local status=$?
    trap - EXIT INT TERM HUP
    end_section
    if [ ${#sections[@]} -gt 0 ]; then
        echo "== time per section (${SECONDS} s in all)"
        printf '%s\n' "${sections[@]}"
    fi
    if ! stop_leftover_daemons test "$repo" "${before[@]}"; then
        [ "$status" -ne 0 ] || status=1
    fi
    exit "$status"
}
trap check_leftovers EXIT
# A signal ends the run through its EXIT trap, and so through the check.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

section "install what the build and the tests need (scripts/setup.sh build test)"
bash scripts/setup.sh build test

section "every command the project runs is installed by scripts/setup.sh or is the base image's"
python3 scripts/check-commands.py --present build test
python3 -m unittest discover -s Tests/commands -q

section "format (swift format lint --strict)"
swift format lint --strict --recursive Package.swift Sources Tests Plugins Examples/GridApp/Package.swift Examples/GridApp/Sources Examples/GridApp/Tests

section "build (warnings are errors)"
quiet_swift build --build-tests

section "tests"
quiet_swift test --skip-build

section "the DocC catalogs of ContainmentHost, ContainmentClient, ContainmentTestKit (swift-docc-plugin; a broken link or unknown article fails)"
bash scripts/docs.sh

section "the public API of those products: model types only (the public symbol graphs docs.sh extracted)"
shopt -s nullglob
graphs=(.build/*/extracted-symbols/*/Containment{Host,Client,TestKit})
shopt -u nullglob
bash scripts/check-public-api.sh "${graphs[@]}"

section "the example app (Examples/GridApp: its own kinds and host executable, under a supervisor, with the test kit)"
(cd Examples/GridApp && quiet_swift build --build-tests && quiet_swift test --skip-build)

section "lean products: containment links no etcd client, an app's host no supervisor (the symbols linked)"
bash scripts/check-lean-products.sh

section "the protocol from another language (Python, pyzmq; typed calls against GridApp's host, built just above)"
CONTAINMENT_REQUIRE_GRID=1 bash scripts/test-python-client.sh

section "the topology's and runtime.yaml's JSON Schemas: every YAML of the project holds to them (scripts/check-schemas.py)"
bash scripts/test-schemas.sh

section "the layout solver against kiwisolver on 10,000 random systems (scripts/solver-oracle.py)"
bash scripts/test-solver-oracle.sh

section "install (scripts/install.sh of the debug build into a scratch prefix: --version, man pages, completions), then every README block as written"
# The debug build the tests ran: a release build of the same sources would add ~6 of CI's minutes and check only
# that the optimizer compiles them (`bash scripts/test-install.sh` alone installs the release build, as a user does).
CONTAINMENT_INSTALL_CONFIG=debug bash scripts/test-install.sh

section "the inspector in a real browser (headless Chromium over the DevTools protocol)"
bash scripts/test-inspector-browser.sh

section "across network namespaces (tcp with CURVE; skipped where namespaces cannot be made)"
bash scripts/test-netns.sh

section "fuzzing (libFuzzer with AddressSanitizer: each target's corpus, then 5 s of new inputs; scripts/fuzz.sh SECONDS for longer)"
bash scripts/fuzz.sh 15
