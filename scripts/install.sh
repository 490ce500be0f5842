#!/usr/bin/env bash
# Puts `containment` on PATH: a release build of the binary (and of `containment-web`, the inspector and the metrics
# over HTTP), their man pages and their bash, zsh and fish completions, under PREFIX (default ~/.local; /usr/local and
# the like need root):
#   PREFIX/bin/containment, PREFIX/bin/containment-web
#   PREFIX/share/man/man1/containment.1, containment.ctl.1, …   (one page per command, argument-parser's generate-manual)
#   PREFIX/share/bash-completion/completions/containment
#   PREFIX/share/zsh/site-functions/_containment
#   PREFIX/share/fish/vendor_completions.d/containment.fish
#   scripts/install.sh [PREFIX]        CONTAINMENT_INSTALL_CONFIG=debug installs the debug build (the tests do)
#   scripts/install.sh --etcd [PREFIX] also PREFIX/bin/containment-etcd: the same commands with etcd's client, what a
#                                      runtime with journal: etcd runs (gRPC, SwiftNIO, BoringSSL: minutes more)
# Installs libzmq and pkg-config first when they are missing (scripts/setup.sh). Run it again to update; remove the
# files above to uninstall.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

etcd=0
if [ "${1:-}" = --etcd ]; then
    etcd=1
    shift
fi
prefix="${1:-$HOME/.local}"
config="${CONTAINMENT_INSTALL_CONFIG:-release}"
case "$config" in release | debug) ;; *) echo "install: CONTAINMENT_INSTALL_CONFIG is release or debug" >&2; exit 64 ;; esac

bash scripts/setup.sh
mkdir -p .build
echo "== building containment and containment-web ($config) — a first build compiles every dependency, several" \
    "minutes on 2 cores" >&2
build_with_progress ".build/install-build.log" -c "$config" --product containment
build_with_progress ".build/install-web-build.log" -c "$config" --product containment-web
if [ "$etcd" = 1 ]; then
    echo "== building containment-etcd ($config): etcd's gRPC client, with SwiftNIO and BoringSSL" >&2
    build_with_progress ".build/install-etcd-build.log" -c "$config" --product containment-etcd
fi
built="$(swift build -c "$config" --show-bin-path)"

# argument-parser's man page generator, built on its own (its package, its own scratch directory: seconds after the
# first time), run over the binary built above. A debug build: it runs once, and compiles in half a release's time.
echo "== building argument-parser's generate-manual" >&2
parser=".build/checkouts/swift-argument-parser"
tools=".build/install-tools"
build_with_progress ".build/install-tools.log" --package-path "$parser" --scratch-path "$tools" --product generate-manual
generate_manual="$(swift build --package-path "$parser" --scratch-path "$tools" --show-bin-path)/generate-manual"

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
manual="$(mktemp -d)"
trap 'rm -rf "$manual"' EXIT
for program in containment containment-web; do
    install -m 0755 "$built/$program" "$prefix/bin/$program"
    "$generate_manual" "$prefix/bin/$program" --multi-page --output-directory "$manual" \
        --authors "the Containment authors" --section 1 >/dev/null
    "$prefix/bin/$program" --generate-completion-script bash >"$prefix/share/bash-completion/completions/$program"
    "$prefix/bin/$program" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_$program"
    "$prefix/bin/$program" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/$program.fish"
done
# containment-etcd: the binary alone (its commands, pages and completions are containment's).
if [ "$etcd" = 1 ]; then install -m 0755 "$built/containment-etcd" "$prefix/bin/containment-etcd"; fi
pages=0
for page in "$manual"/*.1; do
    install -m 0644 "$page" "$prefix/share/man/man1/"
    pages=$((pages + 1))
done

echo "installed $("$prefix/bin/containment" --version) into $prefix:"
echo "  $prefix/bin/containment, $prefix/bin/containment-web$([ "$etcd" = 0 ] || echo ", $prefix/bin/containment-etcd")"
echo "  $pages man pages in $prefix/share/man/man1 (man containment, man containment.ctl, man containment-web, …)"
echo "  completions: bash ($prefix/share/bash-completion/completions), zsh ($prefix/share/zsh/site-functions)," \
    "fish ($prefix/share/fish/vendor_completions.d)"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "$prefix/bin is not on PATH: add  export PATH=\"$prefix/bin:\$PATH\"  to your shell's profile" ;;
esac
