"""scripts/check-commands.py finds the commands the project runs, in each shape it runs them, and fails on one that
scripts/setup.sh does not install. Run by the test command: python3 -m unittest discover -s Tests/commands"""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts/check-commands.py")
spec = importlib.util.spec_from_file_location("check_commands", SCRIPT)
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)
from commands_swift import swift_uses  # noqa: E402  (check-commands.py put scripts/ on the path)

SHFMT = shutil.which("shfmt")


@unittest.skipUnless(SHFMT, "shfmt is missing (bash scripts/setup.sh shfmt)")
class FindsCommands(unittest.TestCase):
    def found(self, kind, text):
        finder = check.Finder(SHFMT)
        if kind == "swift":
            swift_uses(text, "T.swift", finder)
        elif kind == "python":
            finder.python(text, "t.py")
        else:
            finder.shell(text, "t.sh")
        self.assertEqual(finder.problems, [])
        return [(use.command, use.where) for use in finder.uses]

    def commands(self, kind, text):
        return sorted({command for command, _ in self.found(kind, text)})

    def test_a_swift_script_run_by_bash_through_a_static_let_is_read(self):
        text = (
            'let started = try await run(\n    "/bin/bash",\n    ["-c", Self.script, "x", directory]\n)\n'
            "private static let script = #\"\"\"\n    set -eu\n    ctl() { etcdctl --endpoints \"$1\" \"$@\"; }\n"
            '    openssl req -x509 -subj "/CN=\\(name)"\n    ctl user add root\n    """#\n'
        )
        self.assertEqual(self.commands("swift", text), ["bash", "ctl", "etcdctl", "openssl", "set"])
        self.assertIn(("etcdctl", "T.swift:2"), self.found("swift", text))

    def test_env_names_the_program_and_python_code_is_not_shell(self):
        text = (
            'run("/usr/bin/env", ["curl", "-sS", url])\n'
            'run("/usr/bin/env", ["python3", "-c", "import socket; print(1)"])\n'
        )
        self.assertEqual(self.commands("swift", text), ["curl", "env", "python3"])

    def test_literals_joined_by_plus_and_interpolations(self):
        text = (
            'runtime.run("/bin/bash", ["-c", "\\"$CONTAINMENT_BIN\\" watch \\(x) " + "| grep -q ok; '
            "exec '\\(RuntimeFixture.binary)' host\"])\n"
        )
        # The binary interpolated in command position is no command; grep after the pipe is.
        self.assertEqual(self.commands("swift", text), ["bash", "exec", "grep"])

    def test_a_topology_host_command_with_a_shell_script_named_by_a_let(self):
        text = (
            'let script = "if [ -f \\(marker) ]; then sleep 4; fi; touch \\(marker); exec \\(binary) host"\n'
            'let topology = """\n    hosts: [h0, {name: h1, command: [/bin/sh, -c, \'\\(script)\', sh]}]\n    """\n'
        )
        self.assertEqual(self.commands("swift", text), ["[", "exec", "sh", "sleep", "touch"])

    def test_a_program_path_and_a_subprocess_name(self):
        text = 'Process.run(URL(fileURLWithPath: "/bin/umount"), arguments: ["-l", mount])\n.name("jq")\n'
        self.assertEqual(self.commands("swift", text), ["jq", "umount"])

    def test_shell_wrappers_lookups_and_nested_scripts(self):
        text = (
            "sudo -u nobody env A=1 timeout -s KILL 5 redis-server --port 0\n"
            'ip netns exec "$ns" chromium --headless\n'
            "command -v valgrind >/dev/null || $sudo apt-get install -y valgrind\n"
            "trap 'stop_all; rm -rf \"$dir\"' EXIT\ntrap - EXIT\n"
            "out=$(bash -c 'protoc --version' | cut -d' ' -f2)\n"
            "\"$bin\" supervisor --topology x.yaml\n"
            "scripts/up.sh\n"
        )
        self.assertEqual(
            self.commands("shell", text),
            ["apt-get", "bash", "chromium", "command", "cut", "env", "ip", "protoc", "redis-server", "rm", "stop_all",
             "sudo", "timeout", "trap", "valgrind"],
        )

    def test_a_heredoc_body_is_not_shell(self):
        text = "python3 - \"$x\" <<'PY'\nimport sys\nnotacommand here\nPY\ncat <<EOF\n$(hostname)\nEOF\n"
        self.assertEqual(self.commands("shell", text), ["cat", "hostname", "python3"])

    def test_python_subprocess_which_and_shell_strings(self):
        text = (
            "import shutil, subprocess\n"
            'browser = shutil.which("chromium")\n'
            'subprocess.run(["bash", os.path.join(ROOT, "scripts/up.sh")])\n'
            'subprocess.Popen(["bash", "-c", line])\n'
            'subprocess.run("etcdctl get x | head -1", shell=True)\n'
            "subprocess.run([binary, 'tree'])\n"
        )
        self.assertEqual(self.commands("python", text), ["bash", "chromium", "etcdctl", "head"])


@unittest.skipUnless(SHFMT, "shfmt is missing (bash scripts/setup.sh shfmt)")
class FailsOnWhatSetupDoesNotInstall(unittest.TestCase):
    """The check run as the test command runs it, on one test file: a command setup.sh installs passes, another
    fails naming the command and the line that runs it."""

    def run_check(self, swift):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "SomeTests.swift")
            with open(path, "w", encoding="utf-8") as file:
                file.write(swift)
            return subprocess.run([sys.executable, SCRIPT, path], capture_output=True, text=True)

    def test_a_command_in_setups_table_passes(self):
        done = self.run_check('let r = try await RuntimeFixture.run("/bin/bash", ["-c", "etcdctl endpoint health"])\n')
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_a_command_setup_does_not_install_fails_with_where_it_runs(self):
        done = self.run_check(
            'let r = try await RuntimeFixture.run(\n    "/bin/bash",\n    ["-c", "nats-server --version"]\n)\n'
        )
        self.assertEqual(done.returncode, 1)
        self.assertIn("`nats-server` is run (", done.stderr)
        self.assertIn("SomeTests.swift:2", done.stderr)


if __name__ == "__main__":
    unittest.main()
