"""The monitor's web server: one static page and one WebSocket, on 127.0.0.1 only.

The browser loads `/` (index.html, monitor.js, monitor.css from `static/`, nothing
from the network) and opens a WebSocket on `/ws`. Over it the server pushes JSON
messages (`hello`, then per publisher `tree`, `status`, `blackboard`, `hooks`,
`breakpoint`, `connection`, `recording` then `transitions`; for a `.btlog` one `btlog`
message) and receives the
page's commands: `{"op": "breakpoint" | "resume" | "step" | "inject" | "clear", "pub": 0,
"uid": 7, "status": "SUCCESS"}`.

Security, because a local web server is reachable by every page the user opens:
- it binds 127.0.0.1 only;
- the page names a publisher by its *index* in the command line's list, never by a
  host: a page cannot make the monitor connect anywhere else;
- the WebSocket's `Origin` must be this server's own `http://127.0.0.1:PORT` (another
  site's script cannot drive the tree), and every request's `Host` must be
  `127.0.0.1:PORT` (a DNS-rebound name gets nothing);
- messages are parsed with `json.loads` and checked field by field.
"""
from __future__ import annotations

import asyncio
import json
from http import HTTPStatus
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
FILES = {"/": ("index.html", "text/html; charset=utf-8"),
         "/monitor.js": ("monitor.js", "text/javascript; charset=utf-8"),
         "/monitor.css": ("monitor.css", "text/css; charset=utf-8")}
OPS = {"breakpoint", "resume", "step", "inject", "clear"}
RESULTS = {"SUCCESS", "FAILURE"}
MAX_MESSAGE = 4096   # a page command is a few dozen bytes


class CommandRejected(ValueError):
    """A page message that is not a valid command; the text goes back to the page."""


def parse_command(text, publisher_count: int) -> tuple[int, str, int, str | None]:
    """(pub, op, uid, status) from one page message, or CommandRejected."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        raise CommandRejected("not JSON") from None
    if not isinstance(data, dict):
        raise CommandRejected("a command is a JSON object")
    op, pub, uid, status = data.get("op"), data.get("pub"), data.get("uid"), data.get("status")
    if op not in OPS:
        raise CommandRejected(f"unknown op {op!r}")
    if type(pub) is not int or not 0 <= pub < publisher_count:
        raise CommandRejected(f"no live publisher {pub!r}")
    if type(uid) is not int or not 0 <= uid <= 0xFFFF:
        raise CommandRejected(f"bad node uid {uid!r}")
    if op == "inject" and status not in RESULTS:
        raise CommandRejected("inject needs status SUCCESS or FAILURE")
    return pub, op, uid, status if op == "inject" else None


class MonitorServer:
    """Serves the page for `watches` (live PublisherWatch objects) and `replays` (btlog messages)."""

    def __init__(self, watches: list, replays: list[dict], port: int = 0, host: str = "127.0.0.1", echo=None):
        self.watches, self.replays = watches, replays
        self.echo = echo   # also called with every message, in the watch thread (the terminal's view)
        self.host, self.port = host, port
        self._connections: set = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def report(self, message: dict) -> None:
        """Called from watch threads: hand the message to the event loop."""
        if self.echo is not None:
            self.echo(message)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._broadcast, json.dumps(message))

    def _broadcast(self, text: str) -> None:
        from websockets.asyncio.server import broadcast

        broadcast(self._connections, text)

    def _hello(self) -> dict:
        return {"type": "hello",
                "publishers": [{"pub": w.index, "label": w.label, "live": True} for w in self.watches]
                + [{"pub": r["pub"], "label": r["label"], "live": False} for r in self.replays]}

    # ---- HTTP -------------------------------------------------------------------------------
    def _process_request(self, connection, request):
        from websockets.datastructures import Headers
        from websockets.http11 import Response

        def reply(status: HTTPStatus, body: bytes, content_type: str = "text/plain; charset=utf-8"):
            headers = Headers([("Content-Type", content_type), ("Content-Length", str(len(body))),
                               ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                               ("Content-Security-Policy", "default-src 'self'; connect-src 'self' "
                                f"ws://{self.host}:{self.port}")])
            return Response(status.value, status.phrase, headers, body)

        if request.headers.get("Host") != f"{self.host}:{self.port}":
            return reply(HTTPStatus.FORBIDDEN, f"open {self.url}\n".encode())
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            if request.headers.get("Origin") != self.origin:
                return reply(HTTPStatus.FORBIDDEN, b"this WebSocket serves the monitor's own page only\n")
            return None   # go on with the WebSocket handshake
        if path not in FILES:
            return reply(HTTPStatus.NOT_FOUND, b"not found\n")
        name, content_type = FILES[path]
        return reply(HTTPStatus.OK, (STATIC / name).read_bytes(), content_type)

    # ---- WebSocket ----------------------------------------------------------------------------
    def _count_viewers(self) -> None:
        for watch in self.watches:
            watch.viewers = len(self._connections)

    async def _handler(self, connection) -> None:
        self._connections.add(connection)
        self._count_viewers()
        try:
            await connection.send(json.dumps(self._hello()))
            for replay in self.replays:
                await connection.send(json.dumps(replay))
            for watch in self.watches:
                for kind in ("connection", "tree", "status", "blackboard", "hooks"):
                    message = watch.latest.get(kind)
                    if message is not None:
                        await connection.send(json.dumps(message))
                recording = watch.recording_message()
                if recording is not None:
                    await connection.send(json.dumps(recording))
            async for text in connection:
                try:
                    pub, op, uid, status = parse_command(text, len(self.watches))
                except CommandRejected as exc:
                    await connection.send(json.dumps({"type": "command", "ok": False, "message": str(exc)}))
                    continue
                self.watches[pub].command(op, uid, status)
        finally:
            self._connections.discard(connection)
            self._count_viewers()

    async def serve(self, started=None, stop: asyncio.Future | None = None) -> None:
        """Run until `stop` completes; `started(server)` is called once the port is bound."""
        from websockets.asyncio.server import serve

        self._loop = asyncio.get_running_loop()
        async with serve(self._handler, self.host, self.port, process_request=self._process_request,
                         max_size=MAX_MESSAGE, server_header=None) as server:
            self.port = server.sockets[0].getsockname()[1]
            for watch in self.watches:
                watch.report = self.report
                watch.start()
            if started is not None:
                started(self)
            try:
                await (stop if stop is not None else asyncio.get_running_loop().create_future())
            finally:
                for watch in self.watches:
                    watch.stop()
