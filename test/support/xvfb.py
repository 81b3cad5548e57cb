"""A private X server (Xvfb) for tests that open windows: started on a free display
number, TCP off (`-nolisten tcp`: only its Unix socket), stopped by its pid.

    with XServer() as x:            # x.display == ":97"; XServer.available() first
        env = {"DISPLAY": x.display}
"""
from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

SOCKETS = Path("/tmp/.X11-unix")


class XServer:
    def __init__(self, width: int = 1280, height: int = 800):
        self.size = f"{width}x{height}x24"
        self.process = None
        self.display = ""

    @staticmethod
    def available() -> str | None:
        """None when Xvfb can run here, else the reason it cannot."""
        return None if shutil.which("Xvfb") else "Xvfb is not installed (Debian package xvfb)"

    def __enter__(self) -> "XServer":
        number = next(n for n in range(90, 200) if not (SOCKETS / f"X{n}").exists()
                      and not Path(f"/tmp/.X{n}-lock").exists())
        self.display = f":{number}"
        self.process = subprocess.Popen(["Xvfb", self.display, "-screen", "0", self.size, "-nolisten", "tcp"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10.0
        while not (SOCKETS / f"X{number}").exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError(f"Xvfb {self.display} did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5.0)
