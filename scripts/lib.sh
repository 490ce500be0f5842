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
