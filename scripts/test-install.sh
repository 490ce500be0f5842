#!/usr/bin/env bash
# The README's promise to a new user, checked: scripts/install.sh into a scratch prefix gives `containment` on PATH
# with the checkout's commit in --version, `man containment` and its subcommands' pages, and completions for bash
# (which complete), zsh and fish; then every shell block of the README runs against that installed binary
# (scripts/test-readme.py). The prefix is removed at the end.
#   scripts/test-install.sh          CONTAINMENT_INSTALL_CONFIG=debug installs the debug build (the test command does)
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="$(mktemp -d "${TMPDIR:-/tmp}/containment-prefix-XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
bash scripts/install.sh --etcd "$prefix"
export PATH="$prefix/bin:$PATH"
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }

[ "$(command -v containment)" = "$prefix/bin/containment" ] || fail "containment on PATH is not the installed one"
version="$(containment --version)"
commit="$(git rev-parse --short=12 HEAD)"
[[ "$version" == "containment "*" (git $commit"* ]] || fail "--version says \"$version\"; HEAD is $commit"
echo "ok   containment --version: $version"
[ "$(command -v containment-web)" = "$prefix/bin/containment-web" ] || fail "containment-web is not installed"
containment-web metrics --help | grep -q "GET /metrics" || fail "containment-web metrics --help"
[ "$(command -v containment-etcd)" = "$prefix/bin/containment-etcd" ] || fail "containment-etcd is not installed (--etcd)"
[[ "$(containment-etcd --version)" == "containment-etcd "*" (git $commit"* ]] || fail "containment-etcd --version"
echo "ok   containment-etcd --version: $(containment-etcd --version)"

if command -v man >/dev/null; then
    page="$(man -w containment)" || fail "man containment finds no page"
    [ "$page" = "$prefix/share/man/man1/containment.1" ] || fail "man containment finds $page, not the installed page"
    MANPAGER=cat man containment.ctl 2>/dev/null | grep -q "wait-idle" || fail "man containment.ctl does not list wait-idle"
    echo "ok   man containment ($page) and man containment.ctl"
else
    head -n 5 "$prefix/share/man/man1/containment.1" | grep -q '^\.Dt CONTAINMENT 1' || fail "containment.1 is no man page"
    echo "ok   containment.1 installed (no man on this machine to read it)"
fi

completions="$(bash -c 'source "$1"; COMP_LINE="containment ct"; COMP_POINT=${#COMP_LINE}
    COMP_WORDS=(containment ct); COMP_CWORD=1; _containment; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$prefix/share/bash-completion/completions/containment")"
grep -qx ctl <<<"$completions" || fail "bash completes \"containment ct\" with [$completions], not ctl"
verbs="$(bash -c 'source "$1"; COMP_LINE="containment ctl wait-"; COMP_POINT=${#COMP_LINE}
    COMP_WORDS=(containment ctl wait-); COMP_CWORD=2; _containment; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$prefix/share/bash-completion/completions/containment")"
grep -qx wait-idle <<<"$verbs" || fail "bash completes \"containment ctl wait-\" with [$verbs], not wait-idle"
head -n 1 "$prefix/share/zsh/site-functions/_containment" | grep -q '^#compdef containment' || fail "no zsh completion"
grep -q '^complete -c .containment' "$prefix/share/fish/vendor_completions.d/containment.fish" || fail "no fish completion"
echo "ok   completions: bash completes, zsh and fish installed"

python3 scripts/test-readme.py --bin-dir "$prefix/bin"
