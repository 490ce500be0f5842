#!/usr/bin/env python3
"""The README as a contract: runs every shell block of README.md, in order, as a reader would paste it.

Each block runs in a fresh run directory (CONTAINMENT_RUN_DIR) and a scratch working directory that holds the
repository's top-level entries as links (so a block's `> main.svg` lands there, not in the clone; `scripts/…` lines,
which cd to their checkout, run from the repository itself), with the binary's
directory first on PATH (`--bin-dir`, default `swift build --show-bin-path`; the test command passes the prefix
`scripts/install.sh` installed into). Every command line must exit 0 unless the README says otherwise.

What a block must show is written in the README itself, in an HTML comment (invisible on the rendered page) right
before the block:

    <!-- readme-test
    run-dir: previous                                  (this block goes on in the previous block's run directory)
    containment ctl set-frame => exit 1; "frameAuthority"
    containment watch => background until "live events after seq"; "frameAuthority"
    containment tree --svg => file main.svg "detail/header"
    bash scripts/test.sh => skip: the test command itself
    -->

or `<!-- readme-test: skip: WHY -->` for a whole block. A rule names the first command line (not yet named) that
starts with its text; its items, split by `;`: `exit N`; `"TEXT"` (standard output and error contain it);
`!"TEXT"` (they do not); `file NAME "TEXT"` (the file NAME in the working directory contains it); `background`
(started, left running while the block's later lines run, stopped at the block's end, then judged; `until "TEXT"`:
the next line waits until its output shows TEXT); `skip: WHY`. A rule that names no line fails the test, so the rules
cannot outlive the README's lines.

Whatever happens, `scripts/down.sh` runs for every run directory used, and background commands are stopped.

    python3 scripts/test-readme.py [--bin-dir DIR] [--readme FILE] [--list]
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE_TIMEOUT = 300  # seconds for one command line (scripts/run.sh builds when the binary is stale)
READY_TIMEOUT = 30  # seconds a background command has to show its `until` text


class Rule:
    def __init__(self, prefix, items, where):
        self.prefix, self.where = prefix, where
        self.exit, self.contains, self.absent, self.files = 0, [], [], []
        self.background, self.until, self.skip, self.used = False, None, None, False
        if items.strip().startswith("skip"):  # the reason is the rest of the line, semicolons and all
            self.skip = items.strip().partition(":")[2].strip() or "skipped"
            return
        for item in split_items(items):
            if item.startswith("skip"):
                self.skip = item.partition(":")[2].strip() or "skipped"
            elif m := re.fullmatch(r"exit (\d+)", item):
                self.exit = int(m.group(1))
            elif m := re.fullmatch(r'background(?: until "(.*)")?', item):
                self.background, self.until = True, m.group(1)
            elif m := re.fullmatch(r'file (\S+) "(.*)"', item):
                self.files.append((m.group(1), m.group(2)))
            elif m := re.fullmatch(r'!"(.*)"', item):
                self.absent.append(m.group(1))
            elif m := re.fullmatch(r'"(.*)"', item):
                self.contains.append(m.group(1))
            else:
                raise SystemExit(f"readme-test: {where}: cannot read `{item}`")


def split_items(text):
    """`a; "b; c"; d` → [a, "b; c", d]: semicolons inside quotes stay."""
    items, current, quoted = [], "", False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            items.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        items.append(current.strip())
    return items


class Block:
    def __init__(self, start, lines, rules, skip, previous_run_dir):
        self.start, self.lines, self.rules = start, lines, rules
        self.skip, self.previous_run_dir = skip, previous_run_dir


def read_blocks(path):
    text = open(path, encoding="utf-8").read().split("\n")
    blocks, i = [], 0
    while i < len(text):
        if text[i].strip() != "```sh":
            i += 1
            continue
        start = i + 1
        # The annotation: an HTML comment ending on the line before the fence.
        rules, skip, previous = [], None, False
        j = i - 1
        if j >= 0 and text[j].strip().endswith("-->"):
            k = j
            while k >= 0 and "<!--" not in text[k]:
                k -= 1
            comment = "\n".join(text[k : j + 1])
            if "readme-test" in comment:
                body = comment.split("readme-test", 1)[1].rsplit("-->", 1)[0]
                if body.strip().startswith(":"):
                    skip = body.strip()[1:].strip().partition(":")[2].strip() or "skipped"
                for offset, raw in enumerate(body.split("\n")):
                    line = raw.strip()
                    if not line or line.startswith(":"):
                        continue
                    where = f"{os.path.basename(path)}:{k + 1 + offset}"
                    if line == "run-dir: previous":
                        previous = True
                    elif "=>" in line:
                        prefix, _, items = line.partition("=>")
                        rules.append(Rule(prefix.strip(), items, where))
                    else:
                        raise SystemExit(f"readme-test: {where}: a rule is `COMMAND => ITEMS`, not `{line}`")
        lines = []
        i += 1
        while i < len(text) and text[i].strip() != "```":
            line = text[i].strip()
            if line and not line.startswith("#"):
                lines.append((i + 1, line))
            i += 1
        blocks.append(Block(start, lines, rules, skip, previous))
        i += 1
    return blocks


def rule_for(block, line):
    for rule in block.rules:
        if not rule.used and line.startswith(rule.prefix):
            rule.used = True
            return rule
    return Rule("", "", "default")


def judge(rule, status, output, workdir):
    problems = []
    if status != rule.exit:
        problems.append(f"exit {status}, the README says {rule.exit}")
    problems += [f'no "{text}" in its output' for text in rule.contains if text not in output]
    problems += [f'"{text}" in its output' for text in rule.absent if text in output]
    for name, text in rule.files:
        path = os.path.join(workdir, name)
        content = open(path, encoding="utf-8", errors="replace").read() if os.path.exists(path) else None
        if content is None:
            problems.append(f"no file {name}")
        elif text not in content:
            problems.append(f'no "{text}" in {name}')
    return problems


def stop(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", help="where `containment` is (default: swift build --show-bin-path)")
    parser.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    parser.add_argument("--list", action="store_true", help="print the blocks and rules, run nothing")
    args = parser.parse_args()
    blocks = read_blocks(args.readme)
    if args.list:
        for block in blocks:
            print(f"block at line {block.start}" + (f" (skipped: {block.skip})" if block.skip else ""))
            for number, line in block.lines:
                print(f"  {number}: {line}")
        return 0

    bin_dir = args.bin_dir or subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    binary = os.path.join(bin_dir, "containment")
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"readme-test: no containment in {bin_dir} (build it, or give --bin-dir)")

    scratch = tempfile.mkdtemp(prefix="containment-readme-")
    run_dirs, background = [], []
    failures, ran, skipped = [], 0, []

    def cleanup():
        for process, _, _ in background:
            stop(process)
        for run_dir in run_dirs:
            env = dict(os.environ, CONTAINMENT_RUN_DIR=run_dir, CONTAINMENT_BIN=binary)
            subprocess.run(["bash", "scripts/down.sh"], cwd=ROOT, env=env, capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        for number, block in enumerate(blocks):
            if block.skip:
                skipped.append((block.start, "whole block", block.skip))
                continue
            if not (block.previous_run_dir and run_dirs):
                run_dirs.append(os.path.join(scratch, f"run-{number}"))
            workdir = os.path.join(scratch, f"work-{number}")
            os.makedirs(workdir)
            for entry in os.listdir(ROOT):
                if entry not in (".git",):
                    os.symlink(os.path.join(ROOT, entry), os.path.join(workdir, entry))
            env = dict(
                os.environ,
                PATH=f"{bin_dir}:{os.environ.get('PATH', '')}",
                CONTAINMENT_RUN_DIR=run_dirs[-1],
                CONTAINMENT_BIN=binary,
            )
            env.pop("CONTAINMENT_CONFIG", None)
            print(f"== README line {block.start} (run directory {os.path.basename(run_dirs[-1])})", flush=True)
            for line_number, line in block.lines:
                rule = rule_for(block, line)
                if rule.skip:
                    skipped.append((line_number, line, rule.skip))
                    print(f"   skip   {line}  ({rule.skip})", flush=True)
                    continue
                ran += 1
                if rule.background:
                    log = open(os.path.join(workdir, f"background-{line_number}.log"), "w+")
                    process = subprocess.Popen(
                        ["bash", "-c", line], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                    background.append((process, log, (line_number, line, rule)))
                    if rule.until:
                        deadline = time.monotonic() + READY_TIMEOUT
                        while rule.until not in open(log.name).read() and time.monotonic() < deadline:
                            if process.poll() is not None:
                                break
                            time.sleep(0.05)  # polling its log for the text that says it is ready
                    print(f"   bg     {line}", flush=True)
                    continue
                # The scripts cd to their own checkout: run from the repository itself (SwiftPM would take the linked
                # working directory for another package and build it again).
                cwd = ROOT if re.match(r"(bash )?scripts/", line) else workdir
                try:
                    done = subprocess.run(
                        ["bash", "-o", "pipefail", "-c", line], cwd=cwd, env=env, capture_output=True,
                        text=True, timeout=LINE_TIMEOUT,
                    )
                    status, output = done.returncode, done.stdout + done.stderr
                except subprocess.TimeoutExpired as timeout:
                    status, output = -1, f"(no end within {LINE_TIMEOUT} s) {timeout.stdout or ''}"
                problems = judge(rule, status, output, workdir)
                print(f"   {'ok  ' if not problems else 'FAIL'}   {line}", flush=True)
                if problems:
                    failures.append((line_number, line, problems, output))
            for process, log, (line_number, line, rule) in background:
                stop(process)
                log.seek(0)
                output = log.read()
                # A command stopped by the harness ends on SIGINT: its own exit status is not the README's to judge.
                rule.exit = process.returncode
                problems = judge(rule, process.returncode, output, workdir)
                print(f"   {'ok  ' if not problems else 'FAIL'}   {line}  (background, stopped)", flush=True)
                if problems:
                    failures.append((line_number, line, problems, output))
            background.clear()
            for rule in block.rules:
                if not rule.used and not rule.skip:
                    failures.append((block.start, rule.prefix, [f"the rule at {rule.where} names no line"], ""))
                elif not rule.used:
                    failures.append((block.start, rule.prefix, [f"the skip at {rule.where} names no line"], ""))
    finally:
        cleanup()

    print(f"README: {ran} command lines run in {sum(1 for b in blocks if not b.skip)} blocks; {len(skipped)} skipped:")
    for line_number, what, why in skipped:
        print(f"   line {line_number}: {what} — {why}")
    for line_number, line, problems, output in failures:
        print(f"FAIL README line {line_number}: {line}", file=sys.stderr)
        for problem in problems:
            print(f"     {problem}", file=sys.stderr)
        for out in output.strip().split("\n")[-15:]:
            print(f"     | {out}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
