"""What the monitor's browser tests share: start `robot-tasks monitor`, read the page's DOM.

`Monitor(args)` runs the real command (`python -m robot_tasks.cli monitor ... --port 0`)
as a child, reads the URL it prints, and stops it by its pid. The DOM readers return
what the page shows: per node uid, its name, ID and status number (`data-status`, the
publisher's STATUS byte: 0-4, or 10 + s for IDLE after s).
"""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp/monitor_shots")


class Monitor:
    def __init__(self, *args: str, timeout_s: float = 20.0):
        env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen([sys.executable, "-m", "robot_tasks.cli", "monitor", *args, "--port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=REPO,
                                        bufsize=0)   # unbuffered: select() sees every line
        self.lines: list[str] = []
        self.errors: list[str] = []
        self.url = ""
        deadline = time.monotonic() + timeout_s
        while not self.url:
            line = self.read_line(deadline - time.monotonic())
            if line is None:
                self.stop()
                raise RuntimeError(f"the monitor printed no URL: {self.lines} {self.process.stderr.read()[-2000:]}")
            if line.startswith("monitor: "):
                self.url = line.split(" ", 1)[1].strip()

    def read_line(self, timeout_s: float, stream=None) -> str | None:
        stream = stream or self.process.stdout
        if timeout_s <= 0 or not select.select([stream], [], [], timeout_s)[0]:
            return None
        line = stream.readline().decode()
        if not line:
            return None
        (self.lines if stream is self.process.stdout else self.errors).append(line.rstrip())
        return line

    def wait_stderr(self, text: str, timeout_s: float = 10.0) -> str:
        deadline = time.monotonic() + timeout_s
        while True:
            for line in self.errors:
                if text in line:
                    return line
            if self.read_line(deadline - time.monotonic(), self.process.stderr) is None:
                raise AssertionError(f"the monitor never said {text!r} on stderr: {self.errors}")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)   # our own child, by its pid
            try:
                self.process.wait(10.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5.0)
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def section(pub: int) -> str:
    return f'section.publisher[data-pub="{pub}"]'


def node_selector(pub: int, uid: int) -> str:
    return f'{section(pub)} li.node[data-uid="{uid}"]'


def page_nodes(browser, pub: int) -> dict[int, dict]:
    """{uid: {"name", "id", "status"}} of every node the page shows for publisher `pub`."""
    raw = browser.evaluate(f"""JSON.stringify([...document.querySelectorAll({json.dumps(section(pub) + ' li.node')})]
        .map(li => [Number(li.dataset.uid), li.querySelector(':scope > .row > .name').textContent,
                    li.querySelector(':scope > .row > .nid').textContent, Number(li.dataset.status)]))""")
    return {uid: {"name": name, "id": nid, "status": status} for uid, name, nid, status in json.loads(raw)}


def page_statuses(browser, pub: int) -> dict[int, int]:
    return {uid: node["status"] for uid, node in page_nodes(browser, pub).items()}


def wait_statuses(browser, pub: int, expected: dict[int, int], timeout_s: float = 10.0) -> dict[int, int]:
    """Wait until the page shows exactly `expected`; return what it shows (assert on it)."""
    deadline = time.monotonic() + timeout_s
    while True:
        shown = page_statuses(browser, pub)
        if shown == expected or time.monotonic() > deadline:
            return shown
        time.sleep(0.05)


def board_value(browser, pub: int, board: str, key: str):
    """The JSON value the blackboard panel holds for `key` of `board`, or None (a long value
    is shown cut short; its cell keeps the whole JSON in data-json)."""
    text = browser.evaluate(f"""(() => {{ const td = document.querySelector({json.dumps(
        f'{section(pub)} table[data-board="{board}"] tr[data-key="{key}"] td.value')});
        return td ? td.dataset.json : null; }})()""")
    return None if text is None else json.loads(text)


def replayed(base: dict[int, int], transitions, upto: int) -> dict[int, int]:
    """The statuses after the first `upto` (usec, uid, status) transitions, as STATUS would
    show them: a node back to IDLE is 10 + the status it left."""
    statuses = dict(base)
    for _, uid, status in transitions[:upto]:
        before = statuses.get(uid, 0)
        statuses[uid] = 10 + before if status == 0 and 0 < before < 10 else status
    return statuses


def scrub(browser, pub: int, position: int) -> None:
    """Move the timeline slider of `pub` to `position`, as a drag would (an input event)."""
    browser.evaluate(f"""(() => {{ const s = document.querySelector({json.dumps(section(pub) + ' input.scrub')});
        s.value = {position}; s.dispatchEvent(new Event('input')); }})()""")


def shot(browser, name: str, full_page: bool = True) -> Path:
    """Save a PNG in /tmp/monitor_shots, after the page's colour fades (0.4 s) have ended."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.evaluate("new Promise(done => setTimeout(done, 600))")
    return Path(browser.screenshot(str(SHOTS / f"{name}.png"), full_page))
