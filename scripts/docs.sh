#!/usr/bin/env bash
# Builds the DocC documentation of the library products an app uses (ContainmentHost, ContainmentClient,
# ContainmentTestKit) with swift-docc-plugin, failing on any warning (a broken symbol link, an unknown article), into
# .build/docs/TARGET. The test command runs it. Open .build/docs/TARGET/index.html, or serve the directory.
set -euo pipefail
cd "$(dirname "$0")/.."
for target in ContainmentHost ContainmentClient ContainmentTestKit; do
    out=".build/docs/$target"
    rm -rf "$out" && mkdir -p .build/docs
    swift package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
        --warnings-as-errors --disable-indexing --output-path "$out" --transform-for-static-hosting 2>&1 |
        grep -vE "^\[[0-9]+/[0-9]+\]|^Building for|^Build complete|prohibited flag|unhandled; explicitly" || true
    [ -f "$out/index.html" ] || { echo "docs: $target was not generated" >&2; exit 1; }
    echo "docs: $target -> $out"
done
