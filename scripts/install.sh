#!/usr/bin/env bash
# Puts `containment` on PATH: a release build of the binary, its man pages and its bash, zsh and fish completions,
# under PREFIX (default ~/.local; /usr/local and the like need root):
#   PREFIX/bin/containment
#   PREFIX/share/man/man1/containment.1, containment.ctl.1, …   (one page per command, argument-parser's generate-manual)
#   PREFIX/share/bash-completion/completions/containment
#   PREFIX/share/zsh/site-functions/_containment
#   PREFIX/share/fish/vendor_completions.d/containment.fish
#   scripts/install.sh [PREFIX]        CONTAINMENT_INSTALL_CONFIG=debug installs the debug build (the tests do)
# Installs libzmq and pkg-config first when they are missing (scripts/setup.sh). Run it again to update; remove the
# files above to uninstall.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

prefix="${1:-$HOME/.local}"
config="${CONTAINMENT_INSTALL_CONFIG:-release}"
case "$config" in release | debug) ;; *) echo "install: CONTAINMENT_INSTALL_CONFIG is release or debug" >&2; exit 64 ;; esac

bash scripts/setup.sh
mkdir -p .build
echo "== building containment ($config) — a first build compiles every dependency, several minutes on 2 cores" >&2
build_with_progress ".build/install-build.log" -c "$config" --product containment
bin="$(swift build -c "$config" --show-bin-path)/containment"

# argument-parser's man page generator, built on its own (its package, its own scratch directory: seconds after the
# first time), run over the binary built above.
echo "== building argument-parser's generate-manual" >&2
parser=".build/checkouts/swift-argument-parser"
tools=".build/install-tools"
build_with_progress ".build/install-tools.log" --package-path "$parser" --scratch-path "$tools" -c release \
    --product generate-manual
generate_manual="$(swift build --package-path "$parser" --scratch-path "$tools" -c release --show-bin-path)/generate-manual"

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$bin" "$prefix/bin/containment"
manual="$(mktemp -d)"
trap 'rm -rf "$manual"' EXIT
"$generate_manual" "$prefix/bin/containment" --multi-page --output-directory "$manual" \
    --authors "the Containment authors" --section 1 >/dev/null
pages=0
for page in "$manual"/*.1; do
    install -m 0644 "$page" "$prefix/share/man/man1/"
    pages=$((pages + 1))
done
"$prefix/bin/containment" --generate-completion-script bash >"$prefix/share/bash-completion/completions/containment"
"$prefix/bin/containment" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_containment"
"$prefix/bin/containment" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/containment.fish"

echo "installed $("$prefix/bin/containment" --version) into $prefix:"
echo "  $prefix/bin/containment"
echo "  $pages man pages in $prefix/share/man/man1 (man containment, man containment.ctl, …)"
echo "  completions: bash ($prefix/share/bash-completion/completions), zsh ($prefix/share/zsh/site-functions)," \
    "fish ($prefix/share/fish/vendor_completions.d)"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "$prefix/bin is not on PATH: add  export PATH=\"$prefix/bin:\$PATH\"  to your shell's profile" ;;
esac
