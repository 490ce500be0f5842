#!/usr/bin/env python3
"""The shipped YAML files hold to their JSON Schemas, and the schemas refuse a misspelt key.

docs/schema/topology.schema.json describes a topology (Config/topologies/*.yaml, Examples/*/Config/*.yaml, the Python
client's test topology), docs/schema/runtime.schema.json the runtime settings (Config/runtime*.yaml); docs/TOPOLOGY.md
is their reference. This script:
- checks that both schemas are valid JSON Schema (draft 2020-12);
- validates every such file against its schema, and checks that its first line names that schema for editors
  (`# yaml-language-server: $schema=RELATIVE/PATH`);
- renames a key in memory (a controller's `parent` to `parnet` in Config/topologies/app.yaml, `journalSync` to
  `journalSink` in Config/runtime.yaml) and checks that validation then fails, naming the misspelt key — as
  `containment config check` refuses it.
It prints one line per check and exits 1 when any fails (2 when jsonschema or PyYAML is missing).

    python3 scripts/check-schemas.py

The schemas are kept by hand beside the Swift types that read the files (Topology.swift, RuntimeConfig.swift);
Tests/RuntimeTests/SchemaTests.swift checks that their keys are those types' keys.
"""

import copy
import difflib
import glob
import json
import os
import sys

try:
    import jsonschema
    import yaml
except ImportError as missing:
    print(
        f"check-schemas: the Python package {missing.name!r} is missing; install both with:\n"
        "    pip install jsonschema pyyaml",
        file=sys.stderr,
    )
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(ROOT, "docs", "schema")


def relative(path):
    return os.path.relpath(path, ROOT)


def topology_files():
    """Every topology the repository ships as valid: those under Config/ (but runtime*.yaml), the examples' and the
    Python client's test topology. (Fuzz/corpus holds fuzzing seeds, some broken on purpose: not these.)"""
    files = [
        path
        for path in glob.glob(os.path.join(ROOT, "Config", "*.yaml"))
        if not os.path.basename(path).startswith("runtime")
    ]
    files += glob.glob(os.path.join(ROOT, "Config", "topologies", "*.yaml"))
    files += glob.glob(os.path.join(ROOT, "Examples", "*", "Config", "*.yaml"))
    files += glob.glob(os.path.join(ROOT, "clients", "python", "tests", "topology.yaml"))
    return sorted(files)


def runtime_files():
    return sorted(glob.glob(os.path.join(ROOT, "Config", "runtime*.yaml")))


def line_of(node, path):
    """The line (1-based) of the value at `path` in the composed YAML `node`, or of the nearest enclosing one."""
    line = node.start_mark.line + 1 if node is not None else None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            found = next((value for key, value in node.value if key.value == str(step)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            found = node.value[step]
        else:
            found = None
        if found is None:
            break
        node = found
        line = node.start_mark.line + 1
    return line


def key_line(node, path, key):
    """The line of `key` in the mapping at `path`."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            node = next((value for k, value in node.value if k.value == str(step)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            return None
    if isinstance(node, yaml.MappingNode):
        for k, _ in node.value:
            if k.value == key:
                return k.start_mark.line + 1
    return None


def rule(error, schema):
    """The description of the conditional rule `error` breaks (an if's `then`, a dependentSchemas entry), if any: what
    the rule says, which the validator's own message (`should not be valid under …`) does not."""
    node, steps, said = schema, list(error.absolute_schema_path), None
    for index, step in enumerate(steps):
        if isinstance(node, dict) and "$ref" in node and step not in node:
            node = resolve(schema, node["$ref"])
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        previous = steps[index - 1] if index else None
        if isinstance(node, dict) and (step == "then" or previous == "dependentSchemas"):
            said = node.get("description", said)
    return said


def resolve(schema, reference):
    node = schema
    for part in reference.lstrip("#/").split("/"):
        node = node[part]
    return node


def describe(error, node, schema, document):
    """One line per problem `error` stands for: where, and what (with the key meant, for an unknown key)."""
    # Of the alternatives of an anyOf (a host as a name or an entry, embed as a flag or a frame), those of the value's
    # own type: `{name: h0, executable: …}` is an entry with an unknown key, not a name that is not a string.
    if error.validator == "anyOf" and error.context:
        close = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
        if close:
            return [line for e in close for line in describe(e, node, schema, document)]
    path = list(error.absolute_path)
    where = "/".join(map(str, path)) or "the top level"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = list(error.schema.get("properties", {}))
        lines = []
        for key in sorted(set(error.instance) - set(known), key=str):
            line = key_line(node, path, str(key)) if node is not None else None
            near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            hint = f'; did you mean "{near[0]}"?' if near else f" (its keys: {', '.join(known)})"
            lines.append(f'{f"line {line}: " if line else ""}unknown key "{key}" in {where}{hint}')
        return lines
    message = rule(error, schema) or error.message
    line = line_of(node, path) if node is not None else None
    steps = list(error.absolute_schema_path)
    if "dependentSchemas" in steps and node is not None:
        # The line of the key that needs another (etcd, supervisors), in the mapping that holds it.
        key = steps[steps.index("dependentSchemas") + 1]
        for depth in range(len(path), -1, -1):
            value = document
            for step in path[:depth]:
                value = value[step]
            if isinstance(value, dict) and key in value:
                line = key_line(node, path[:depth], key) or line
                break
    return [f"{f'line {line}: ' if line else ''}{where}: {message}"]


def problems(validator, document, node=None):
    """Every way `document` breaks the schema, one line each, in the order of the file's lines."""
    lines = [
        line for error in validator.iter_errors(document) for line in describe(error, node, validator.schema, document)
    ]
    return sorted(set(lines), key=lambda line: (int(line.split(":")[0][5:]) if line.startswith("line ") else 0, line))


def schema_comment(path, schema_name):
    """The first line a file of this schema starts with, naming it relative to the file."""
    target = os.path.relpath(os.path.join(SCHEMAS, schema_name), os.path.dirname(path))
    return f"# yaml-language-server: $schema={target}"


def main():
    failures = 0

    def report(ok, what, detail=""):
        nonlocal failures
        if not ok:
            failures += 1
        print(f"{'ok    ' if ok else 'FAILED'}  {what}{': ' + detail if detail else ''}")

    validators = {}
    for name in ["topology.schema.json", "runtime.schema.json"]:
        path = os.path.join(SCHEMAS, name)
        with open(path, encoding="utf-8") as file:
            schema = json.load(file)
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as error:
            report(False, relative(path), f"not a valid draft 2020-12 schema: {error.message}")
            continue
        validators[name] = jsonschema.Draft202012Validator(schema)
        report(True, relative(path), "a valid draft 2020-12 schema")
    if len(validators) < 2:
        return 1

    documents = {}
    checked = [(path, "topology.schema.json") for path in topology_files()]
    checked += [(path, "runtime.schema.json") for path in runtime_files()]
    for path, schema_name in checked:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        try:
            document = yaml.safe_load(text)
            node = yaml.compose(text)
        except yaml.YAMLError as error:
            report(False, relative(path), f"not YAML: {error}")
            continue
        # runtime.yaml: a file of comments only sets nothing.
        if document is None and schema_name == "runtime.schema.json":
            document = {}
        documents[relative(path)] = document
        found = problems(validators[schema_name], document, node)
        expected = schema_comment(path, schema_name)
        first = text.split("\n", 1)[0]
        if first != expected:
            found.append(f"line 1 is not `{expected}`")
        kind = schema_name.split(".")[0]
        report(not found, relative(path), f"{kind}" if not found else "; ".join(found))

    # A misspelt key is refused, naming it.
    def misspelt(file, schema_name, rename, locate):
        document = documents.get(file)
        if document is None:
            report(False, f"{file} with a misspelt key", "the file was not read")
            return
        document = copy.deepcopy(document)
        old, new = rename
        mapping = locate(document)
        if mapping is None or old not in mapping:
            report(False, f"{file} with {old} -> {new}", f"no {old} to rename")
            return
        mapping[new] = mapping.pop(old)
        found = problems(validators[schema_name], document)
        named = [line for line in found if f'"{new}"' in line]
        if named:
            report(True, f"{file} with {old} -> {new}", f"refused ({named[0]})")
        else:
            report(False, f"{file} with {old} -> {new}", "accepted" if not found else "; ".join(found))

    misspelt(
        "Config/topologies/app.yaml",
        "topology.schema.json",
        ("parent", "parnet"),
        lambda document: next((c for c in document.get("controllers", []) if "parent" in c), None),
    )
    misspelt("Config/runtime.yaml", "runtime.schema.json", ("journalSync", "journalSink"), lambda document: document)

    if failures:
        print(f"check-schemas: {failures} failed")
        return 1
    print(f"check-schemas: {len(checked)} files hold to their schemas; a misspelt key is refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
