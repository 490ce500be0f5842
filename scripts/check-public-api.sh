#!/usr/bin/env bash
# The public API of the library products an app builds on holds model types only: no wire type (generated protobuf
# `Containment_V1_*`, `WireEvent`, `WireSnapshot`, …) and no type of an internal module (ContainmentBus,
# ContainmentConfig, ContainmentRuntime, ZeroMQ, SwiftProtobuf) in any public declaration of ContainmentHost,
# ContainmentClient or ContainmentTestKit. Reads the symbol graphs `swift package dump-symbol-graph` writes; exits 1
# naming each offender.
#   scripts/check-public-api.sh [SYMBOLGRAPH_DIR…]   (directories given: only checks the graphs in them, no dump;
#                                                     the test command passes those scripts/docs.sh just extracted)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

directories=("$@")
if [ ${#directories[@]} -eq 0 ]; then
    output="$(swift package dump-symbol-graph --minimum-access-level public 2>&1)" || { echo "$output" >&2; exit 1; }
    directories=("$(echo "$output" | sed -n 's/^Files written to //p' | tail -1)")
fi
for directory in "${directories[@]}"; do
    [ -d "$directory" ] || { echo "check-public-api: no symbol graphs at '$directory'" >&2; exit 1; }
done

python3 - "${directories[@]}" <<'PYTHON'
import json, re, sys
from pathlib import Path

directories = [Path(argument) for argument in sys.argv[1:]]
products = ["ContainmentHost", "ContainmentClient", "ContainmentTestKit"]
internal = {"ContainmentBus", "ContainmentConfig", "ContainmentRuntime", "ZeroMQ", "CZeroMQ", "SwiftProtobuf", "ContainmentLoad"}
wire_names = re.compile(r"\b(Containment_V1_\w+|Wire\w+|ClientMessage|ServerMessage|SwiftProtobuf)\b")

def module_of(usr: str):
    """The module a Swift USR names (s:14ContainmentBus…), None for the standard library's short forms."""
    match = re.match(r"s:(\d+)", usr)
    if not match:
        return None
    length = int(match.group(1))
    start = match.end()
    return usr[start:start + length]

offenders = []
for product in products:
    path = next((d / f"{product}.symbols.json" for d in directories if (d / f"{product}.symbols.json").exists()),
                directories[0] / f"{product}.symbols.json")
    if not path.exists():
        offenders.append(f"{product}: no symbol graph ({path})")
        continue
    graph = json.loads(path.read_text())
    for symbol in graph["symbols"]:
        name = ".".join(symbol["pathComponents"])
        fragments = symbol.get("declarationFragments", [])
        declaration = "".join(f["spelling"] for f in fragments)
        reasons = set()
        for fragment in fragments:
            usr = fragment.get("preciseIdentifier", "")
            module = module_of(usr) if usr else None
            if module in internal:
                reasons.add(f"{fragment['spelling']} (from {module})")
        for match in wire_names.finditer(declaration):
            reasons.add(match.group(1))
        if reasons:
            offenders.append(f"{product}: {name}: {', '.join(sorted(reasons))}\n    {declaration}")
    print(f"check-public-api: {product}: {len(graph['symbols'])} public symbols")

if offenders:
    print("check-public-api: wire or internal types in the public API:", file=sys.stderr)
    for offender in offenders:
        print("  " + offender, file=sys.stderr)
    sys.exit(1)
print("check-public-api: no wire or internal type in the public API of " + ", ".join(products))
PYTHON
