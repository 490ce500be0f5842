#!/usr/bin/env bash
# Builds the DocC documentation of the library products an app uses (ContainmentHost, ContainmentClient,
# ContainmentTestKit) with swift-docc-plugin, failing on any warning (a broken symbol link, an unknown article), into
# .build/docs/TARGET. The test command runs it. Serve a directory to read it, e.g.
#   python3 -m http.server -d .build/docs/ContainmentHost   then open http://localhost:8000/documentation/containmenthost
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for target in ContainmentHost ContainmentClient ContainmentTestKit; do
    out=".build/docs/$target"
    rm -rf "$out" && mkdir -p .build/docs
    if ! swift package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
        --warnings-as-errors --disable-indexing --output-path "$out" --transform-for-static-hosting >"$log" 2>&1 ||
        [ ! -f "$out/index.html" ]; then
        grep -vE "^\[[0-9]+/[0-9]+\]|prohibited flag|unhandled; explicitly" "$log" >&2
        echo "docs: $target failed" >&2
        exit 1
    fi
    echo "docs: $target -> $out"
done
