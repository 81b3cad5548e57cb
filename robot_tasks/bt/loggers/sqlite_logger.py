"""SqliteLogger: transitions in an SQLite database (`.db3`/`.btdb`), BT.CPP 4.10's schema.

One database can hold many runs ("sessions"); each logger opens a new session:

- `Definitions(session_id, date, xml_tree)`: the tree of the session (with `_uid`s
  and the node models, as Groot2's FULLTREE);
- `Nodes(session_id, fullpath, node_uid)`: which uid is which node;
- `Transitions(timestamp, session_id, node_uid, duration, state, extra_data)`:
  `timestamp` is microseconds since the epoch, made strictly increasing so it can be
  the primary key; `state` the new status (0..4); `duration`, on the change that
  ends a RUNNING node, the microseconds since it started running (0 otherwise);
  `extra_data` free text, unused here.
So "how long did MoveArm run?" is
`SELECT duration FROM Transitions JOIN Nodes USING(session_id, node_uid)
 WHERE fullpath LIKE '%MoveArm' AND duration > 0`.

The callback only queues; a writer thread inserts every 10 ms in one transaction
(sqlite3 objects stay in that thread). `append=False` empties the tables first.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from collections import deque
from pathlib import Path

from ..errors import BehaviorTreeError
from ..status import IDLE, RUNNING
from ..xml.writer import write_tree_to_xml
from .base import StatusChangeLogger, stop_writer

WRITE_PERIOD_S = 0.01
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS Definitions (session_id INTEGER PRIMARY KEY AUTOINCREMENT, date TEXT NOT NULL, "
    "xml_tree TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS Nodes (session_id INTEGER NOT NULL, fullpath VARCHAR, node_uid INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS Transitions (timestamp INTEGER PRIMARY KEY NOT NULL, session_id INTEGER NOT NULL, "
    "node_uid INTEGER NOT NULL, duration INTEGER, state INTEGER NOT NULL, extra_data VARCHAR)",
)


class SqliteLogger(StatusChangeLogger):
    def __init__(self, tree, path, append: bool = True):
        if Path(path).suffix not in (".db3", ".btdb"):
            raise BehaviorTreeError("SqliteLogger: the file extension must be [.db3] or [.btdb]")
        self.path = str(path)
        self._queue: deque = deque()
        self._running_since: dict[int, int] = {}
        self._last_timestamp = 0
        self._ready = threading.Event()
        self._wake = threading.Event()
        self._running = True
        self._writing = False
        self._error: BaseException | None = None
        self.session_id: int | None = None
        self._xml = write_tree_to_xml(tree, add_metadata=True, add_builtin_models=True)
        self._nodes = [(node.full_path, node.uid) for subtree in tree.subtrees for node in subtree.nodes]
        self._append = append
        self._writer = threading.Thread(target=self._write_loop, name="sqlite-logger", daemon=True)
        self._writer.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        super().__init__(tree)

    def callback(self, timestamp_ns, node, previous, status) -> None:
        now_us = max(self._last_timestamp + 1, timestamp_ns // 1000)
        self._last_timestamp = now_us
        duration = 0
        if previous is IDLE and status is RUNNING:
            self._running_since[node.uid] = now_us
        elif previous is RUNNING and status is not RUNNING:
            duration = now_us - self._running_since.get(node.uid, now_us)
        self._queue.append((now_us, node.uid, duration, status.value))

    def _open(self):
        connection = sqlite3.connect(self.path)
        for statement in SCHEMA:
            connection.execute(statement)
        if not self._append:
            for table in ("Transitions", "Nodes", "Definitions"):
                connection.execute(f"DELETE FROM {table}")
        cursor = connection.execute("INSERT INTO Definitions (date, xml_tree) VALUES (?, ?)",
                                    (time.strftime("%Y-%m-%d %H:%M:%S"), self._xml))
        self.session_id = cursor.lastrowid
        connection.executemany("INSERT INTO Nodes (session_id, fullpath, node_uid) VALUES (?, ?, ?)",
                               [(self.session_id, path, uid) for path, uid in self._nodes])
        connection.commit()
        return connection

    def _write(self, connection) -> None:
        queue, rows = self._queue, []
        self._writing = True
        while queue:
            now_us, uid, duration, state = queue.popleft()
            rows.append((now_us, self.session_id, uid, duration, state))
        if rows:
            connection.executemany("INSERT INTO Transitions (timestamp, session_id, node_uid, duration, state) "
                                   "VALUES (?, ?, ?, ?, ?)", rows)
            connection.commit()
        self._writing = False

    def _write_loop(self) -> None:
        try:
            connection = self._open()
        except sqlite3.Error as exc:
            self._error = BehaviorTreeError(f"SqliteLogger: can't use {self.path}: {exc}")
            self._ready.set()
            return
        self._ready.set()
        try:
            while self._running:
                self._wake.wait(WRITE_PERIOD_S)
                if self._wake.is_set() and self._running:
                    self._wake.clear()
                self._write(connection)
            self._write(connection)
        finally:
            connection.close()

    def flush(self, timeout_s: float = 5.0) -> None:
        """Have the writer insert what is queued; wait (up to `timeout_s`) until it did."""
        deadline = time.monotonic() + timeout_s
        while (self._queue or self._writing) and self._writer.is_alive() and time.monotonic() < deadline:
            self._wake.set()
            time.sleep(0.001)

    def close(self) -> None:
        if self._subscription is None:
            return
        super().close()
        stop_writer(self)
