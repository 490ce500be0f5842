"""The inspector in a real browser: headless Chromium, driven over the DevTools protocol.

Starts a runtime with the inspector (scripts/up.sh --inspector PORT) in a fresh run directory, loads the page, waits
until the rendered DOM lists every controller of the topology and draws its windows, makes a change with
`containment ctl`, waits until the page shows it (a new controller in the tree, its events in the list), saves a
screenshot (--screenshot PATH), and stops everything. Exits 0 when every check passed.

    python inspector_in_chromium.py [--screenshot PATH] [--topology FILE]
"""
import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # websocket-client

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Page:
    """One Chromium tab over the DevTools protocol: commands by id, answers awaited."""

    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=10)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def wait_for(self, expression, what, seconds=15):
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}: {expression}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--screenshot", help="save a PNG of the page here")
    parser.add_argument("--topology", default=os.path.join(ROOT, "Config/topologies/menu.yaml"))
    args = parser.parse_args()
    binary = os.environ["CONTAINMENT_BIN"]
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("inspector-browser: chromium is not installed")
    run_dir = tempfile.mkdtemp(prefix="containment-browser-")
    env = dict(os.environ, CONTAINMENT_RUN_DIR=run_dir)
    env.pop("CONTAINMENT_CONFIG", None)
    port = free_port()
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    browser = None
    try:
        up = subprocess.run(["bash", os.path.join(ROOT, "scripts/up.sh"), "--inspector", str(port), args.topology],
                            env=env, capture_output=True, text=True, timeout=60)
        assert up.returncode == 0, f"up.sh failed:\n{up.stdout}\n{up.stderr}"
        assert f"up: inspector at http://127.0.0.1:{port}/" in up.stdout, up.stdout
        tree = json.loads(subprocess.run([binary, "tree", "--json"], env=env, capture_output=True, text=True,
                                         check=True).stdout)
        expected = sorted(c["id"] for c in tree["controllers"])

        devtools = free_port()
        browser = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
             f"--remote-debugging-port={devtools}", f"--user-data-dir={profile}", "--window-size=1400,1100",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        targets = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{devtools}/json/list", timeout=1) as answer:
                    targets = [t for t in json.load(answer) if t.get("type") == "page"]
                if targets:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        assert targets, "chromium's DevTools never answered"
        page = Page(targets[0]["webSocketDebuggerUrl"])
        page.call("Page.enable")
        page.call("Page.navigate", url=f"http://127.0.0.1:{port}/")

        # Every controller in the tree, the windows drawn, the hosts listed, the stream live.
        ids = "JSON.stringify([...document.querySelectorAll('#controllers li[data-id]')].map(e => e.dataset.id).sort())"
        page.wait_for(f"{ids} === {json.dumps(json.dumps(expected, separators=(',', ':')))}",
                      f"the controllers {expected}")
        drawn = page.wait_for("document.querySelectorAll('#windows svg rect.view').length", "the windows drawn")
        assert drawn >= len(tree["windows"]), drawn
        page.wait_for("document.getElementById('status').textContent === 'live'", "the live stream")
        hosts = page.evaluate("document.querySelectorAll('#hosts tbody tr').length")
        assert hosts == len(tree["hosts"]), (hosts, tree["hosts"])
        shown_seq = int(page.evaluate("document.getElementById('seq').textContent"))
        assert shown_seq >= tree["seq"], (shown_seq, tree["seq"])

        # A change made with ctl shows without a reload: the tree, the events (a violation highlighted).
        subprocess.run([binary, "ctl", "create", "browsed", "--kind", "content"], env=env, check=True,
                       capture_output=True)
        subprocess.run([binary, "ctl", "set-frame", expected[0], "0,0,10,10", "--by", expected[0]], env=env,
                       capture_output=True)
        page.wait_for("!!document.querySelector('#controllers li[data-id=\"browsed\"]')", "the new controller")
        page.wait_for("[...document.querySelectorAll('#events tbody tr')].some(r => r.textContent.includes("
                      "'controllerCreated') && r.textContent.includes('browsed'))", "its controllerCreated event")
        page.wait_for("document.querySelectorAll('#events tbody tr.violation').length > 0", "the rule violation")
        # Hovering a controller's view highlights it and shows its properties.
        page.evaluate("document.querySelector('#windows rect.view').dispatchEvent(new MouseEvent('mouseenter'))")
        page.wait_for("document.querySelectorAll('#windows rect.highlight').length > 0", "a highlighted view")
        page.wait_for("document.querySelector('#selected h3') !== null", "the hovered controller's details")

        # Clicking selects it and shows what its actor received, asked of its host (inspect).
        page.evaluate("document.querySelector('#windows rect.view').dispatchEvent(new MouseEvent('click'))")
        page.wait_for("document.querySelector('#details h4:nth-of-type(2)')?.textContent.startsWith("
                      "'callbacks its actor received')", "the actor's callbacks")
        page.wait_for("document.querySelectorAll('#callbacks li').length > 0", "at least one callback listed")
        if args.screenshot:
            shot = page.call("Page.captureScreenshot", format="png")
            with open(args.screenshot, "wb") as out:
                out.write(base64.b64decode(shot["data"]))
        print(f"inspector-browser: every check passed ({len(expected)} controllers, {drawn} views drawn)")
    finally:
        if browser:
            browser.terminate()
            try:
                browser.wait(timeout=10)
            except subprocess.TimeoutExpired:
                browser.kill()
        subprocess.run(["bash", os.path.join(ROOT, "scripts/down.sh")], env=env, capture_output=True)
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(run_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
