# Shared by the scripts: sourced, not run.

# Runs `swift ARGS`, hiding SwiftPM's note that it drops the `-isystem /usr/include/mit-krb5` flags Debian's libzmq.pc
# carries (libzmq's GSSAPI headers; nothing here uses them). Keeps swift's exit status.
quiet_swift() {
    local status
    set +e
    swift "$@" 2>&1 | { grep -v "prohibited flag(s): -isystem" || true; }
    status=${PIPESTATUS[0]}
    set -e
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

# The pids of the `containment ROLE` daemons (ROLE: supervisor or host) whose CONTAINMENT_RUN_DIR is RUN_DIR, from
# /proc: those a pid file no longer names are found too.
run_dir_daemons() {  # run_dir_daemons RUN_DIR ROLE
    local environ pid
    for environ in /proc/[0-9]*/environ; do
        pid="${environ#/proc/}"; pid="${pid%/environ}"
        [ "$pid" != "$$" ] || continue
        { tr '\0' '\n' <"$environ"; } 2>/dev/null | grep -qx "CONTAINMENT_RUN_DIR=$1" || continue
        { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -Eq "containment $2( |$)" || continue
        process_alive "$pid" && echo "$pid"
    done
}
