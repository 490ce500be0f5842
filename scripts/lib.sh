# Shared by the scripts: sourced, not run.
# shellcheck shell=bash

# Runs `swift ARGS`, hiding SwiftPM's note that it drops the `-isystem /usr/include/mit-krb5` flags Debian's libzmq.pc
# carries (libzmq's GSSAPI headers; nothing here uses them). Keeps swift's exit status.
quiet_swift() {
    local status attempt
    for attempt in 1 2; do
        set +e
        swift "$@" 2>&1 | { grep -v "prohibited flag(s): -isystem" || true; }
        status=${PIPESTATUS[0]}
        set -e
        swiftpm_crashed "$status" "$attempt" "$1" || break
    done
    return "$status"
}

# The virtualenv the Python tests and checks share (.build/python-venv), made (again) when it is missing or its pip
# does not run; prints its path. Needs python3's venv (scripts/setup.sh python:ensurepip).
python_venv() {
    local venv=".build/python-venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
        rm -rf "$venv"
        mkdir -p .build
        python3 -m venv "$venv"
    fi
    echo "$venv"
}

# True (after saying so) when SwiftPM itself died of SIGSEGV (status 139) on a first attempt, so the caller runs the
# same command once more. SwiftPM 6.3 now and then crashes inside libdispatch on Linux, in no code of ours (the
# project's CI once died so 28 s into `swift build`, resolving packages; upstream: swiftlang/swift#87033,
# swiftlang/swift-package-manager#8171). Building again is harmless: SwiftPM's work is idempotent. A crash of a test
# or of the compiler is not this: `swift test` and `swift build` then exit 1, and nothing is run again.
swiftpm_crashed() {  # swiftpm_crashed STATUS ATTEMPT SUBCOMMAND
    [ "$1" -eq 139 ] && [ "$2" -eq 1 ] || return 1
    echo "swift $3: SwiftPM itself crashed (SIGSEGV, a known toolchain crash, not this project's code): once more" >&2
}

# `swift build ARGUMENTS` with one line of progress ("[412/1093] Compiling SwiftNIO …", rewritten in place on a
# terminal; every tenth of the way otherwise) instead of the compiler's lines, which go to LOG; on failure, LOG's last
# 40 lines. Returns swift's status.
build_with_progress() {  # build_with_progress LOG ARGUMENTS...
    local log="$1" status start attempt
    shift
    start=$(date +%s)
    for attempt in 1 2; do
        set +e
        swift build "$@" 2>&1 | tee "$log" | awk -v tty="$([ -t 2 ] && echo 1 || echo 0)" '
            /^\[[0-9]+\/[0-9]+\] / {
                split(substr($0, 2, index($0, "]") - 2), n, "/")
                if (tty) { printf "\r\033[K  %s", substr($0, 1, 100) > "/dev/stderr" }
                else if (n[2] + 0 > 0 && int(10 * n[1] / n[2]) > shown) {
                    shown = int(10 * n[1] / n[2]); print "  " $0 > "/dev/stderr"
                }
            }
            END { if (tty) printf "\r\033[K" > "/dev/stderr" }'
        status=${PIPESTATUS[0]}
        set -e
        swiftpm_crashed "$status" "$attempt" build || break
    done
    if [ "$status" -ne 0 ]; then
        echo "build failed (the whole log: $log):" >&2
        tail -n 40 "$log" >&2
    else
        echo "  built in $(( $(date +%s) - start )) s" >&2
    fi
    return "$status"
}

# The run directory every command and script uses: CONTAINMENT_RUN_DIR, or $TMPDIR/containment-$USER.
# Exported, so the binaries started from a script agree with it.
containment_run_dir() {
    local user="${USER:-${LOGNAME:-$(id -un 2>/dev/null || id -u)}}"
    local tmp="${TMPDIR:-/tmp}"
    echo "${CONTAINMENT_RUN_DIR:-${tmp%/}/containment-$user}"
}

# The `containment` binary: CONTAINMENT_BIN, or the built one (built first when it is missing).
containment_bin() {
    local bin
    if [ -n "${CONTAINMENT_BIN:-}" ]; then echo "$CONTAINMENT_BIN"; return; fi
    bin="$(swift build --show-bin-path 2>/dev/null)/containment"
    if [ ! -x "$bin" ]; then
        quiet_swift build --product containment >&2
    fi
    echo "$bin"
}

# For the measuring scripts of a replicated runtime: `containment-etcd` (the same commands with etcd's client), as
# CONTAINMENT_ETCD_BIN names it, else the release build, built now (the caller exports it as CONTAINMENT_BIN and
# CONTAINMENT_ETCD_BIN, so the scripts and the daemons they start run it).
release_containment_etcd_bin() {
    if [ -n "${CONTAINMENT_ETCD_BIN:-}" ]; then echo "$CONTAINMENT_ETCD_BIN"; return; fi
    quiet_swift build -c release --product containment-etcd >&2
    echo "$(swift build -c release --show-bin-path)/containment-etcd"
}

# `containment-etcd` (every command of `containment` with etcd's client: what a runtime with journal: etcd runs):
# CONTAINMENT_ETCD_BIN, or the one beside the `containment` binary, built first when it is missing (gRPC, SwiftNIO and
# BoringSSL: several minutes the first time).
containment_etcd_bin() {
    local bin dir configuration=debug
    if [ -n "${CONTAINMENT_ETCD_BIN:-}" ]; then echo "$CONTAINMENT_ETCD_BIN"; return; fi
    dir="$(dirname "$(containment_bin)")"
    bin="$dir/containment-etcd"
    if [ ! -x "$bin" ]; then
        case "$dir" in */release) configuration=release ;; esac
        echo "== building containment-etcd ($configuration: etcd's gRPC client, with SwiftNIO and BoringSSL)" >&2
        mkdir -p .build
        build_with_progress .build/etcd-build.log -c "$configuration" --product containment-etcd >&2
        bin="$(swift build -c "$configuration" --show-bin-path 2>/dev/null)/containment-etcd"
    fi
    echo "$bin"
}

# `containment-web` (the inspector and the metrics over HTTP): CONTAINMENT_WEB_BIN, or the one beside the `containment`
# binary, built first when it is missing (the HTTP stack: a few minutes the first time).
containment_web_bin() {
    local bin
    if [ -n "${CONTAINMENT_WEB_BIN:-}" ]; then echo "$CONTAINMENT_WEB_BIN"; return; fi
    bin="$(dirname "$(containment_bin)")/containment-web"
    if [ ! -x "$bin" ]; then
        echo "== building containment-web (the inspector and the metrics over HTTP: hummingbird, swift-nio)" >&2
        mkdir -p .build
        build_with_progress .build/web-build.log --product containment-web >&2
        bin="$(swift build --show-bin-path 2>/dev/null)/containment-web"
    fi
    echo "$bin"
}

# True when the process runs: exists and is not a zombie waiting for its (re)parent to reap it.
process_alive() {
    kill -0 "$1" 2>/dev/null || return 1
    local state
    state="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
    [ -n "$state" ] && [ "${state:0:1}" != "Z" ]
}

# True when the pid file names a live process.
pid_alive() {
    [ -f "$1" ] && process_alive "$(cat "$1")"
}

# The pids of the `containment ROLE` daemons (ROLE: supervisor or host; inspector and metrics are `containment-web`'s;
# or an extended regular expression such as
# '[a-z-]+' for any subcommand) whose CONTAINMENT_RUN_DIR is RUN_DIR, from /proc: those a pid file no longer names are
# found too. A host the supervisor started from a topology's `command` (an app's own program) is found by the pid file
# it was told to write (`--pid-file RUN_DIR/host-NAME.pid`).
run_dir_daemons() {  # run_dir_daemons RUN_DIR ROLE
    local environ pid cmdline
    for environ in /proc/[0-9]*/environ; do
        pid="${environ#/proc/}"; pid="${pid%/environ}"
        [ "$pid" != "$$" ] || continue
        { tr '\0' '\n' <"$environ"; } 2>/dev/null | grep -qx "CONTAINMENT_RUN_DIR=$1" || continue
        cmdline="$({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null)" || continue
        if ! grep -Eq "containment(-web)? $2( |$)" <<<"$cmdline"; then
            [ "$2" = host ] && [[ "$cmdline" == *" --pid-file $1/host-"* ]] || continue
        fi
        process_alive "$pid" && echo "$pid"
    done
}

# One line naming the process, for a report: its pid, its command line and its CONTAINMENT_RUN_DIR if it has one.
describe_process() {  # describe_process PID
    local cmdline run_dir
    cmdline="$({ tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null)" || cmdline=""
    run_dir="$({ tr '\0' '\n' <"/proc/$1/environ"; } 2>/dev/null | sed -n 's/^CONTAINMENT_RUN_DIR=//p')" || run_dir=""
    cmdline="${cmdline% }"
    echo "pid $1: ${cmdline:-(gone)}${run_dir:+ (CONTAINMENT_RUN_DIR=$run_dir)}"
}

# Stops the processes whatever they do: SIGTERM, up to 5 s for them to end, then SIGKILL those still running and up to
# 2 s more for the kernel to take them down. A process that is already gone is no error.
stop_processes() {  # stop_processes PID...
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null || true
    wait_gone 50 "$@" && return 0
    kill -KILL $(alive_of "$@") 2>/dev/null || true
    wait_gone 20 "$@" || true
}

# The PIDs given that are still running, one per line.
alive_of() {  # alive_of PID...
    local pid
    for pid in "$@"; do if process_alive "$pid"; then echo "$pid"; fi; done
}

# Waits up to TENTHS tenths of a second for every PID to end; false if any still runs.
wait_gone() {  # wait_gone TENTHS PID...
    local tenths="$1"
    shift
    for _ in $(seq 1 "$tenths"); do
        [ -n "$(alive_of "$@")" ] || return 0
        sleep 0.1
    done
    [ -z "$(alive_of "$@")" ]
}

# The parent's pid, from /proc/PID/stat: the field after the command name (which may hold spaces and parentheses) and
# the state. Empty when the process is gone.
parent_pid() {  # parent_pid PID
    local stat ppid
    { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 0
    read -r _ ppid _ <<<"${stat##*) }"
    echo "$ppid"
}

# True when PID is a descendant of ANCESTOR (not ANCESTOR itself).
descends_from() {  # descends_from PID ANCESTOR
    local pid
    pid="$(parent_pid "$1")"
    while [ "${pid:-0}" -gt 1 ]; do
        [ "$pid" != "$2" ] || return 0
        pid="$(parent_pid "$pid")"
    done
    return 1
}

# The pids of the daemons (and clients) that tests may have left running: every process that runs a `containment`
# binary built under REPO/.build (debug, release, the fuzz scratch path), or whose CONTAINMENT_RUN_DIR is one of the
# fresh run directories the tests and scripts make in the temporary directory ($TMPDIR, or /tmp where a test falls
# back to it for short socket paths): containment-test-* (RuntimeFixture), containment-load-* (LocalRuntime),
# containment-netns-*, containment-run-*, containment-measure-* (scripts), containment-py-*, containment-browser-*
# (the Python tests), containment-bench-* (bench); and every etcd member of a test's own cluster (etcd-test-*, in
# /dev/shm or the temporary directory). Not the
# default run directory ($TMPDIR/containment-$USER), where a
# developer's own runtime lives. Never this shell nor its ancestors, which may carry such a CONTAINMENT_RUN_DIR too, nor
# the helpers it runs (a subshell, a `tr` in a pipeline): of the calling script's descendants only `containment`
# processes count.
leftover_daemons() {  # leftover_daemons REPO
    local build tmp="${TMPDIR:-/tmp}" skip=" " ancestor proc pid exe var value vars
    tmp="${tmp%/}"
    # /proc/PID/exe is the resolved path: compare with .build resolved too (it, or the repository, may be a link).
    build="$(cd "$1/.build" 2>/dev/null && pwd -P)" || build=""
    # This (sub)shell and every ancestor up to init.
    ancestor="$BASHPID"
    while [ "${ancestor:-0}" -gt 0 ]; do
        skip+="$ancestor "
        ancestor="$(parent_pid "$ancestor")"
    done
    for proc in /proc/[0-9]*; do
        pid="${proc#/proc/}"
        [[ "$skip" != *" $pid "* ]] || continue
        # A binary rebuilt since the daemon started reads as "PATH (deleted)": still this checkout's.
        exe="$(readlink "$proc/exe" 2>/dev/null)" || exe=""
        exe="${exe% (deleted)}"
        if [[ -n "$build" && "${exe##*/}" == containment && "$exe" == "$build/"* ]]; then
            if process_alive "$pid"; then echo "$pid"; fi
            continue
        fi
        # An etcd member of a test's own cluster (EtcdFixture: its data in $TMPDIR/etcd-test-*).
        if [[ "${exe##*/}" == etcd ]] && tr '\0' ' ' <"$proc/cmdline" 2>/dev/null | grep -Eq -- "--data-dir ($tmp|/tmp|/dev/shm)/etcd-test-"; then
            if process_alive "$pid"; then echo "$pid"; fi
            continue
        fi
        vars=()
        { mapfile -d '' -t vars <"$proc/environ"; } 2>/dev/null || continue
        for var in "${vars[@]}"; do
            value="${var#CONTAINMENT_RUN_DIR=}"
            [ "$value" != "$var" ] || continue
            value="${value%/}"
            if [[ ("${value%/*}" == "$tmp" || "${value%/*}" == /tmp) \
                && "${value##*/}" =~ ^containment-(test|load|netns|run|measure|py|browser|bench)- ]] \
                && { [ "${exe##*/}" = containment ] || ! descends_from "$pid" "$$"; }; then
                if process_alive "$pid"; then echo "$pid"; fi
            fi
            break
        done
    done
}

# Reports and stops the leftover_daemons of REPO, but for the pids given (those that ran before the tests did): each
# named with its command line, then SIGTERM, 5 s, SIGKILL. Prints how many on standard error, PREFIX first; false when
# there were any.
stop_leftover_daemons() {  # stop_leftover_daemons PREFIX REPO [PID-TO-IGNORE...]
    local prefix="$1" repo="$2" pid left=()
    shift 2
    for pid in $(leftover_daemons "$repo"); do
        [[ " $* " == *" $pid "* ]] || left+=("$pid")
    done
    [ ${#left[@]} -gt 0 ] || return 0
    echo "$prefix: the tests left ${#left[@]} daemons behind:" >&2
    for pid in "${left[@]}"; do echo "  $(describe_process "$pid")" >&2; done
    stop_processes "${left[@]}"
    echo "$prefix: stopped them (SIGTERM, then SIGKILL for any still running after 5 s)" >&2
    return 1
}

# Counts with callgrind what `BUILT ARGS…` runs inside the function whose symbol matches PATTERN (an awk regex), one
# dump after each of its calls (scripts/callgrind-core.sh, scripts/callgrind-loop.sh): the binary is copied into OUT
# without its debug info (valgrind 3.19 cannot read the DWARF 5 the toolchain writes; the symbols stay), its
# standard output kept in OUT/bench.json, valgrind's in OUT/valgrind.log. Prints each dump's instructions, in order.
callgrind_calls() {
    local out="$1" pattern="$2" built="$3" binary symbol
    shift 3
    binary="$out/containment"
    objcopy --strip-debug "$built" "$binary"
    nm "$binary" >"$out/symbols"
    symbol="$(awk -v pattern="$pattern" '$0 ~ pattern {print $3; exit}' "$out/symbols")"
    [ -n "$symbol" ] || { echo "callgrind: no symbol matching $pattern in $binary" >&2; return 1; }
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" --compress-strings=no \
        --toggle-collect="$symbol" --dump-after="$symbol" "$binary" "$@" >"$out/bench.json" 2>"$out/valgrind.log"
    python3 - "$out" <<'PY'
import glob, re, sys
out = sys.argv[1]
def counted(path):
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    return 0
dumps = sorted(glob.glob(f"{out}/callgrind.out.*"), key=lambda p: int(re.search(r"\.(\d+)$", p).group(1)))
for count in (counted(p) for p in dumps):
    if count > 0:
        print(count)
PY
}
