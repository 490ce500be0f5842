#!/usr/bin/env python3
"""Every external command the project runs is installed by scripts/setup.sh or is part of the base image.

Finds the commands that the scripts, the tests, the sources and the README's blocks start, and fails on any that
scripts/setup.sh neither installs (its table, `setup.sh --list`) nor lists as the base image's (`setup.sh --base`):
so a package a new machine lacks is found on the developer's machine, not on the new one. Also fails on a row or a
base command nothing runs any more (the table stays exact), and, with --present GROUP..., on a command of those
groups or of the base image that this machine does not have (setup.sh ran, so a wrong package name shows here).

Where commands are found (each shell text is read through shfmt's syntax tree, `shfmt --to-json`):
- shell: every tracked *.sh, .ci/run and file with a shell #! line; a `bash -c`/`sh -c` script, a `trap` action,
  the command after a wrapper (sudo, env, exec, timeout, nohup, setsid, xargs, `ip netns exec NS`, ...); `command -v`,
  `which` and `type -P` count as uses of what they look for;
- Swift (Sources, Tests, Plugins, Examples): a string literal that is an absolute path to a program
  (`"/bin/bash"`, `"/usr/bin/etcd"`); the program after `"/usr/bin/env"`; the script after `"/bin/bash"`/`"sh"` and
  `"-c"` (a literal, literals joined by `+`, or a `let` of the same file); Subprocess's `.name("X")`; a string that
  starts with a shell #! line; a topology's `command: [...]`;
- Python (tracked *.py but generated code): subprocess calls and os.exec* with a literal program, `shell=True`
  strings, `shutil.which("X")`;
- the topologies in Config/ and Examples/ (`command: [...]`), and the README's ```sh blocks, line by line.

Not counted: bash's builtins and keywords, functions the project's shell defines, the project's own executables
(Package.swift products), relative paths (the project's own files), and words that are not literal (`"$bin"`).

    python3 scripts/check-commands.py [--present GROUP...] [--show]
"""

import argparse
import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from commands_swift import INTERPOLATION, swift_uses  # noqa: E402  (beside this file)

# A word after which the next word is the command run, and how many of the words that follow are its own
# (options are skipped on top: any word starting with "-", and for env, NAME=VALUE).
WRAPPERS = {
    "sudo": 0, "env": 0, "exec": 0, "nohup": 0, "setsid": 0, "nice": 0, "stdbuf": 0, "time": 0, "xargs": 0,
    "timeout": 1, "taskset": 1, "flock": 1, "chroot": 1, "unshare": 0, "valgrind": 0, "strace": 0,
}
# Options of a wrapper that take a value as the next word.
WRAPPER_OPTIONS_WITH_VALUE = {
    "sudo": {"-u", "-g", "-C", "-D"}, "env": {"-u", "-C", "-S"}, "nice": {"-n"}, "timeout": {"-s", "-k"},
    "xargs": {"-n", "-P", "-I", "-d", "-a", "-E", "-L", "-s"}, "stdbuf": {"-i", "-o", "-e"}, "strace": {"-e", "-o"},
    "exec": {"-a"},
}
# A lookup: the words after it are commands looked for (counted as uses), none is run here.
LOOKUPS = {"which": set(), "type": {"-P", "-p", "-t", "-a", "-f"}, "hash": {"-r"}}
SHELLS = {"bash", "sh", "dash"}


class Use:
    def __init__(self, command, where):
        self.command, self.where = command, where


class Finder:
    def __init__(self, shfmt):
        self.shfmt = shfmt
        self.uses = []
        self.functions = set()
        self.problems = []

    # --- shell ---------------------------------------------------------------------------------------------------

    def shell(self, text, where):
        """Every command of a shell text; `where` is "FILE" (a line is added) or "FILE:LINE"."""
        done = subprocess.run(
            [self.shfmt, "--to-json", "-ln", "bash"], input=text, capture_output=True, text=True
        )
        if done.returncode != 0:
            self.problems.append(f"{where}: shfmt cannot parse this shell text: {done.stderr.strip()}")
            return
        self._walk(json.loads(done.stdout), where)

    def _walk(self, node, where):
        if isinstance(node, list):
            for item in node:
                self._walk(item, where)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("Type")
        if kind == "FuncDecl":
            self.functions.add(node["Name"]["Value"])
        elif kind == "CallExpr" and node.get("Args"):
            self._call(node["Args"], where)
        for key, value in node.items():
            if key not in ("Pos", "End") and isinstance(value, (dict, list)):
                self._walk(value, where)

    def _call(self, args, where):
        words = [literal(word) for word in args]
        if words[0] is None and parameter(args[0]) == "sudo":  # `$sudo apt-get …`: sudo when not root
            words[0] = "sudo"
        # A file's shell: its line; a text held elsewhere (a Swift literal, a README line): where that is.
        here = where if re.search(r":\d+$", where) else f"{where}:{args[0]['Pos']['Line']}"
        self.command_words(words, here, lambda text: self.shell(text, here))

    def command_words(self, words, here, shell):
        """The command that a list of words (None: not literal) runs, through its wrappers; `shell` reads a -c text."""
        i = 0
        while i < len(words):
            name = words[i]
            if name is None:
                return
            name = program(name)
            if name is None:  # a relative path: the project's own file
                return
            self.uses.append(Use(name, here))
            rest = words[i + 1 :]
            if name in SHELLS:
                if len(rest) >= 2 and rest[0] == "-c" and rest[1] is not None:
                    shell(rest[1])
                return
            if name == "trap" and rest and rest[0] is not None and not rest[0].startswith("-"):
                shell(rest[0])
                return
            if name == "command" and rest:
                if rest[0] in ("-v", "-V"):
                    self._lookups(rest[1:], here)
                    return
                i += 1
                continue
            if name in LOOKUPS:
                self._lookups([w for w in rest if w not in LOOKUPS[name]], here)
                return
            if name == "ip" and len(rest) >= 3 and rest[:2] == ["netns", "exec"]:
                i += 4
                continue
            if name not in WRAPPERS:
                return
            i += 1
            with_value = WRAPPER_OPTIONS_WITH_VALUE.get(name, set())
            while i < len(words) and words[i] is not None and (
                words[i].startswith("-") or (name == "env" and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[i]))
            ):
                i += 2 if words[i] in with_value else 1
            i += WRAPPERS[name]

    def _lookups(self, words, here):
        for word in words:
            if word is not None and not word.startswith("-") and program(word):
                self.uses.append(Use(program(word), here))

    # --- Python ----------------------------------------------------------------------------------------------------

    def python(self, text, where):
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name, first, here = dotted(node.func), node.args[0], f"{where}:{node.lineno}"
            if name == "shutil.which" or name.startswith("os.exec"):  # which("x"), os.execvp("x", [...])
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    self.command_words([first.value], here, lambda t: self.shell(t, here))
            elif name.startswith("subprocess.") or name == "Popen":
                shell = any(k.arg == "shell" and getattr(k.value, "value", False) for k in node.keywords)
                if isinstance(first, (ast.List, ast.Tuple)):
                    words = [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None
                             for e in first.elts]
                    self.command_words(words, here, lambda t: self.shell(t, here))
                elif isinstance(first, ast.Constant) and isinstance(first.value, str):
                    if shell:
                        self.shell(first.value, here)
                    else:
                        self.command_words([first.value], here, lambda t: self.shell(t, here))

    # --- topologies ------------------------------------------------------------------------------------------------

    def topology(self, text, where, first_line=1):
        """`command: [PROGRAM, ARG...]` of a topology's hosts (YAML's flow sequence)."""
        for match in re.finditer(r"command:\s*\[", text):
            line = first_line + text.count("\n", 0, match.start())
            words = [unquote(w) for w in flow_sequence(text, match.end())]
            self.command_words(words, f"{where}:{line}", lambda t: self.shell(t, f"{where}:{line}"))


def literal(word):
    """A shell word's text when it is all literal (quoted or not), else None."""
    text = ""
    for part in word.get("Parts", []):
        kind = part.get("Type")
        if kind in ("Lit", "SglQuoted"):
            text += part.get("Value", "")
        elif kind == "DblQuoted":
            inner = literal(part)
            if inner is None:
                return None
            text += inner
        else:
            return None
    return text


def parameter(word):
    """The name of the variable a word is, alone (`$sudo`), else None."""
    parts = word.get("Parts", [])
    if len(parts) == 1 and parts[0].get("Type") == "ParamExp" and parts[0].get("Short"):
        return parts[0]["Param"]["Value"]
    return None


def program(name):
    """The command a program word names: its base name for an absolute path, None for a relative path."""
    if INTERPOLATION in name:  # a Swift interpolation: not literal
        return None
    if name.startswith("/"):
        return os.path.basename(name)
    if "/" in name or not name:
        return None
    return name


def dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return dotted(node.value) + "." + node.attr
    return ""


def flow_sequence(text, i):
    """The items of the YAML flow sequence whose `[` ends before `i`: `a, 'b, c]', "d"]` → [a, 'b, c]', "d"]."""
    words, current, quote = [], "", None
    while i < len(text):
        char = text[i]
        i += 1
        if quote:
            current += char
            if char == quote:
                quote = None
        elif char in "'\"" and not current.strip():
            quote = char
            current += char
        elif char in ",]":
            if current.strip():
                words.append(current.strip())
            current = ""
            if char == "]":
                break
        else:
            current += char
    return words


def unquote(word):
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1].replace("''", "'") if word[0] == "'" else word[1:-1]
    return word


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [path for path in out.split("\0") if path and os.path.isfile(os.path.join(ROOT, path))]


def is_shell(path):
    if path.endswith(".sh") or path == ".ci/run":
        return True
    try:
        with open(os.path.join(ROOT, path), "rb") as file:
            first = file.readline(200)
    except OSError:
        return False
    return bool(re.match(rb"#!\s*(/usr/bin/env\s+)?(/bin/|/usr/bin/)?(ba|da)?sh\b", first))


def readme_blocks(path):
    spec = importlib.util.spec_from_file_location("test_readme", os.path.join(ROOT, "scripts/test-readme.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.read_blocks(path)


def executables():
    """The project's own executables: every Package.swift's executable products and targets."""
    names = set()
    for path in tracked_files():
        if os.path.basename(path) == "Package.swift":
            text = open(os.path.join(ROOT, path), encoding="utf-8").read()
            names |= set(re.findall(r'\.executable(?:Target)?\(\s*name:\s*"([^"]+)"', text))
    return names


def builtins():
    done = subprocess.run(["bash", "-c", "compgen -b; compgen -k"], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def setup_table():
    """setup.sh's rows (what, package, groups, why) and its base image's commands."""
    setup = os.path.join(ROOT, "scripts/setup.sh")
    listed = subprocess.run(["bash", setup, "--list"], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in listed.splitlines():
        what, package, groups, why = (line.split(None, 3) + [""])[:4]
        rows.append((what, package, groups.split(","), why))
    base = subprocess.run(["bash", setup, "--base"], capture_output=True, text=True, check=True).stdout.split()
    return rows, base


def find_uses(finder, files):
    for path in files:
        full = os.path.join(ROOT, path)
        if path.endswith(".swift"):
            swift_uses(open(full, encoding="utf-8").read(), path, finder)
        elif path.endswith(".py"):
            if path.endswith("_pb2.py"):
                continue
            finder.python(open(full, encoding="utf-8").read(), path)
        elif re.match(r"(Config|Examples)/.*\.ya?ml$", path):
            finder.topology(open(full, encoding="utf-8").read(), path)
        elif is_shell(path):
            finder.shell(open(full, encoding="utf-8").read(), path)
    for block in readme_blocks(os.path.join(ROOT, "README.md")):
        for number, line in block.lines:
            finder.shell(line, f"README.md:{number}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--present", nargs="*", metavar="GROUP", help="also check that the commands of these groups "
                        "and of the base image are on this machine")
    parser.add_argument("--show", action="store_true", help="print every command found and where it is run")
    parser.add_argument("files", nargs="*", help="check these files (default: every tracked file, and the README)")
    args = parser.parse_args()

    shfmt = shutil.which("shfmt")
    if shfmt is None:
        print("check-commands: shfmt is missing (bash scripts/setup.sh test installs it)", file=sys.stderr)
        return 2
    finder = Finder(shfmt)
    if args.files:
        for path in args.files:
            find_uses(finder, [os.path.relpath(os.path.abspath(path), ROOT)])
    else:
        find_uses(finder, tracked_files())
    rows, base = setup_table()
    own = executables()
    # The project's executables, and the completion functions argument-parser writes for them (`_containment`).
    ignored = builtins() | finder.functions | own | {"_" + name for name in own}
    commands = {what: (package, groups, why) for what, package, groups, why in rows if ":" not in what}

    used = {}
    for use in finder.uses:
        if use.command not in ignored:
            used.setdefault(use.command, []).append(use.where)
    problems = list(finder.problems)
    for command, places in sorted(used.items()):
        if command not in commands and command not in base:
            shown = ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")
            problems.append(f"`{command}` is run ({shown}) but scripts/setup.sh neither installs it (a row of its "
                            "table: the command, its Debian package) nor lists it as the base image's")
    if not args.files:
        for command in sorted(commands):
            if command not in used:
                problems.append(f"scripts/setup.sh installs `{command}` ({commands[command][0]}), which nothing runs")
        for command in sorted(set(base) - set(used)):
            problems.append(f"scripts/setup.sh lists `{command}` as the base image's, which nothing runs")
        for command in sorted(set(base) & set(commands)):
            problems.append(f"`{command}` is both in scripts/setup.sh's table and in its base image")
    if args.present is not None:
        for command in sorted(base):
            if shutil.which(command) is None:
                problems.append(f"`{command}` is listed as the base image's, but this machine lacks it: give it a "
                                "row of scripts/setup.sh's table with the package that has it")
        for command, (package, groups, _) in sorted(commands.items()):
            if set(groups) & set(args.present) and package != "-" and shutil.which(command) is None:
                problems.append(f"`{command}` is missing after scripts/setup.sh {' '.join(args.present)}: does "
                                f"{package} give it?")
    if args.show:
        for command, places in sorted(used.items()):
            print(f"{command:24} {len(places):4}  {places[0]}")
    for problem in problems:
        print(f"check-commands: {problem}", file=sys.stderr)
    if not problems:
        print(f"check-commands: {len(used)} commands, run in {len(finder.uses)} places, each installed by "
              "scripts/setup.sh or the base image's")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
