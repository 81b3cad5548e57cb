"""A headless Chromium driven over the Chrome DevTools Protocol (CDP), for browser tests.

CDP is JSON-RPC: we send `{"id": 1, "method": "Runtime.evaluate", "params": {...}}` and
Chromium answers `{"id": 1, "result": {...}}`, with events (`{"method": ...}`) in
between. With `--remote-debugging-pipe` the messages travel over two pipes that
Chromium finds as file descriptors 3 (it reads) and 4 (it writes), each message ended by
a NUL byte: no debugging port is opened at all. Commands to a page go to a session
attached to that page target (`Target.attachToTarget`, flatten: the session id rides in
each message).

Chromium is kept off the network by its flags (no background networking, component
updates, sync, metrics uploads ...) and the pages we open are on 127.0.0.1.

    with Browser() as browser:               # Browser.available() first: None or why not
        browser.navigate("http://127.0.0.1:8090/")
        browser.wait_for("document.querySelectorAll('li.node').length > 3")
        browser.click('li[data-uid="3"] button.bp')
        browser.screenshot("/tmp/shot.png")
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

OFFLINE_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-domain-reliability", "--disable-features=MediaRouter,OptimizationHints,Translate",
    "--metrics-recording-only", "--disable-default-apps", "--disable-extensions",
    "--disable-client-side-phishing-detection", "--safebrowsing-disable-auto-update",
    "--disable-breakpad", "--no-pings", "--password-store=basic", "--use-mock-keychain",
    "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=127.0.0.1",   # anything not 127.0.0.1 goes nowhere
    "--disable-dev-shm-usage", "--remote-debugging-pipe",
]


class CdpError(RuntimeError):
    pass


class Browser:
    def __init__(self, width: int = 1400, height: int = 900, timeout_s: float = 20.0):
        self.size = (width, height)
        self.timeout_s = timeout_s
        self._next_id = 0
        self._replies: dict[int, dict] = {}
        self._cond = threading.Condition()
        self.console: list[str] = []
        self.process = None

    @staticmethod
    def executable() -> str | None:
        return shutil.which("chromium") or shutil.which("chromium-browser")

    @staticmethod
    def available() -> str | None:
        """None when a headless Chromium can run here, else the reason it cannot."""
        return None if Browser.executable() else "Chromium is not installed (Debian package chromium)"

    # ---- life cycle ------------------------------------------------------------------------
    def __enter__(self) -> "Browser":
        self._profile = tempfile.mkdtemp(prefix="cdp_profile_")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def child_fds():   # Chromium expects the pipes at fds 3 and 4
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        command = [self.executable(), *OFFLINE_FLAGS, f"--user-data-dir={self._profile}",
                   f"--window-size={self.size[0]},{self.size[1]}", "about:blank"]
        self.process = subprocess.Popen(command, preexec_fn=child_fds, pass_fds=(3, 4),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._reader = threading.Thread(target=self._read, name="cdp-reader", daemon=True)
        self._reader.start()
        try:
            targets = self.call("Target.getTargets")["targetInfos"]
            page = next(t for t in targets if t["type"] == "page")
            self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
            self.call("Page.enable", session=True)
            self.call("Runtime.enable", session=True)
            self.call("Emulation.setDeviceMetricsOverride", session=True, width=self.size[0], height=self.size[1],
                      deviceScaleFactor=1, mobile=False)
        except Exception:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                self._send("Browser.close", {}, None)
                self.process.wait(5.0)
            except (OSError, subprocess.TimeoutExpired):
                self.process.terminate()   # our own child, by its handle
                try:
                    self.process.wait(5.0)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(5.0)
        for fd in (getattr(self, "_to_chrome", None),):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        shutil.rmtree(getattr(self, "_profile", ""), ignore_errors=True)

    # ---- the pipe ----------------------------------------------------------------------------
    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_chrome, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._replies[-1] = {"error": {"message": "Chromium closed the pipe"}}
                    self._cond.notify_all()
                os.close(self._from_chrome)
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._cond:
                        self._replies[message["id"]] = message
                        self._cond.notify_all()
                elif message.get("method") == "Runtime.consoleAPICalled":
                    args = message["params"].get("args", [])
                    self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in args))
                elif message.get("method") == "Runtime.exceptionThrown":
                    self.console.append("exception: " + json.dumps(message["params"].get("exceptionDetails", {}))[:500])

    def _send(self, method: str, params: dict, session: str | None) -> int:
        with self._cond:
            self._next_id += 1
            ident = self._next_id
        message = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        return ident

    def call(self, method: str, session: bool = False, **params) -> dict:
        ident = self._send(method, params, self.session if session else None)
        deadline = time.monotonic() + self.timeout_s
        with self._cond:
            while ident not in self._replies:
                if -1 in self._replies:
                    raise CdpError(self._replies[-1]["error"]["message"])
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CdpError(f"{method}: no answer in {self.timeout_s} s")
                self._cond.wait(left)
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise CdpError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    # ---- what tests use ------------------------------------------------------------------------
    def navigate(self, url: str) -> None:
        self.call("Page.navigate", session=True, url=url)
        self.wait_for("document.readyState === 'complete'")

    def evaluate(self, expression: str):
        """The JSON value of a JavaScript expression in the page (awaits a promise)."""
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise CdpError(f"{expression[:80]}: {result['exceptionDetails'].get('text')} "
                           f"{result['exceptionDetails'].get('exception', {}).get('description', '')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout_s: float = 10.0, period_s: float = 0.05):
        """Poll `expression` until it is truthy; return its value (CdpError on timeout)."""
        deadline = time.monotonic() + timeout_s
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CdpError(f"timed out after {timeout_s} s waiting for: {expression}")
            time.sleep(period_s)

    def click(self, selector: str, timeout_s: float = 5.0) -> None:
        """A real mouse click (pressed + released) at the centre of the element, once the
        element is the one under that point (not covered, not moving)."""
        # the element must be under its centre and not moving: same box across two frames
        box = self.wait_for(f"""(async () => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; e.scrollIntoView({{block: 'center'}});
            const frame = () => new Promise(done => requestAnimationFrame(() => done()));
            const a = e.getBoundingClientRect(); await frame(); await frame(); const r = e.getBoundingClientRect();
            if (a.x !== r.x || a.y !== r.y) return null;
            const x = r.x + r.width / 2, y = r.y + r.height / 2, top = document.elementFromPoint(x, y);
            return top && (top === e || e.contains(top)) ? [x, y] : null; }})()""", timeout_s)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", session=True, type=kind, x=box[0], y=box[1], button="left",
                      clickCount=1)

    def screenshot(self, path: str, full_page: bool = True) -> str:
        """A PNG of the page (whole, or only what the window shows)."""
        data = self.call("Page.captureScreenshot", session=True, format="png",
                         captureBeyondViewport=full_page)["data"]
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))
        return path
