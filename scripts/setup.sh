#!/usr/bin/env bash
# Installs what the machine lacks, through apt (with sudo when not root): every command that the build, the tests,
# the scripts and the README's blocks run and a new machine may not have, each named once in the table below beside
# the Debian package that gives it. Safe to run again: it installs nothing that is already there, and fails naming a
# row whose command is still missing afterwards.
#   scripts/setup.sh                 the build's (scripts/run.sh, up.sh, install.sh)
#   scripts/setup.sh GROUP|WHAT...   those groups' (build, test: what the test command runs, profile, generate,
#                                    service) or those rows' (e.g. etcd, chromium)
#   scripts/setup.sh --list          the table: what, package, groups, who runs it (a row a line)
#   scripts/setup.sh --base          the commands a new machine of this kind already has (never installed)
# scripts/check-commands.py (a step of the test command) reads both lists: it fails on a command run anywhere in the
# project that is in neither, and on a row or a base command that nothing runs any more.
set -euo pipefail

# What (a command; `pkg-config:M` a pkg-config module, `python:M` a module of python3), its Debian package (`-`: not
# from apt, the last column says how), the groups that need it, and who runs it.
TABLE=(
    "pkg-config:libzmq   libzmq3-dev        build     the ZeroMQ wrapper (Package.swift's CZeroMQ): headers and library"
    "pkg-config          pkg-config         build     the build: libzmq's compiler and linker flags"
    "curl                curl               test      MetricsTests, InspectorTests: /metrics and the inspector over HTTP"
    "etcd                etcd-server        test      journal: etcd (containment up, scripts/etcd.sh, EtcdFixture, stress and bench's LocalEtcd)"
    "redis-server        redis-server       test      containment bench peer: Redis beside Containment (BenchTests)"
    "redis-benchmark     redis-tools        test      containment bench peer: Redis driven in the bus figures' shapes"
    "redis-cli           redis-tools        test      containment bench peer: a PING until Redis serves"
    "etcdctl             etcd-client        test      SecuredEtcd: a user, a role and authentication on a TLS member"
    "openssl             openssl            test      SecuredEtcd: the test's certificate authorities and certificates"
    "ip                  iproute2           test      scripts/test-netns.sh: network namespaces (as root; skipped otherwise)"
    "ps                  procps             test      scripts/lib.sh: a process's state (process_alive)"
    "pkill               procps             test      InspectorTests: SIGTERM to the inspector by its command line"
    "man                 man-db             test      scripts/test-install.sh: the installed man pages found and read"
    "systemd-analyze     systemd            test      SystemdUnitTests: the written units verified"
    "systemctl           systemd            service   the README's units, enabled where systemd is the init"
    "sudo                sudo               service   the README's units installed; this script's apt-get when not root"
    "protoc              protobuf-compiler  test,generate  the Python client's test of its generated code; scripts/generate-*.sh"
    "python:ensurepip    python3-venv       test      the Python tests' virtualenv (.build/python-venv)"
    "chromium            chromium           test      scripts/test-inspector-browser.sh: the inspector in headless Chromium"
    "shfmt               shfmt              test      scripts/check-commands.py: the shell it checks, read as a syntax tree"
    "valgrind            valgrind           profile   scripts/callgrind-model.sh, callgrind-core.sh: instructions counted"
    "protoc-gen-swift    -                  generate  swift-protobuf's plugin: swift build -c release --product protoc-gen-swift"
    "protoc-gen-grpc-swift-2  -             generate  grpc-swift-protobuf's plugin: swift build -c release --product protoc-gen-grpc-swift-2"
)

# The commands a new machine of this kind has (Debian 12 with its essential packages, git, Python 3 and Swift 6.2 or
# later on PATH): run freely, never installed. check-commands.py --present fails where one is missing.
BASE=(
    bash sh env awk sed grep sort head tail cut tr wc tee cat cp rm ls install mkdir mktemp touch cksum date sleep
    seq basename dirname readlink id timeout setsid nohup mount umount git python3 swift swiftc nm objcopy apt-get
)

present() {  # present WHAT
    case "$1" in
        pkg-config:*) pkg-config --exists "${1#pkg-config:}" 2>/dev/null ;;
        python:*) python3 -c "import ${1#python:}" >/dev/null 2>&1 ;;
        *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

case "${1:-}" in
    --list) printf '%s\n' "${TABLE[@]}"; exit 0 ;;
    --base) printf '%s\n' "${BASE[@]}"; exit 0 ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(build)

# The rows asked for, by group or by name: what is missing, and the packages that give it.
wanted=() missing=() packages=() unavailable=()
for row in "${TABLE[@]}"; do
    read -r what package row_groups why <<<"$row"
    for group in "${groups[@]}"; do
        [[ ",$row_groups," == *",$group,"* || "$group" == "$what" ]] || continue
        wanted+=("$what")
        if ! present "$what"; then
            missing+=("$what")
            if [ "$package" = - ]; then unavailable+=("$what ($why)"); else packages+=("$package"); fi
        fi
        break
    done
done
for group in "${groups[@]}"; do
    if ! printf '%s\n' "${TABLE[@]}" | awk -v g="$group" '$1 == g || ("," $3 ",") ~ ("," g ",") { found = 1 } END { exit !found }'; then
        echo "setup: $group is neither a group (build test profile generate service) nor a row (setup.sh --list)" >&2
        exit 2
    fi
done

if [ ${#packages[@]} -gt 0 ]; then
    echo "setup: installing ${packages[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH (Swift 6.2 or later is needed)" >&2; exit 1; }
status=0
for what in "${missing[@]}"; do
    if ! present "$what"; then
        echo "setup: $what is still missing" >&2
        status=1
    fi
done
for row in "${unavailable[@]}"; do echo "setup: not from apt, build or install it: $row" >&2; done
exit "$status"
