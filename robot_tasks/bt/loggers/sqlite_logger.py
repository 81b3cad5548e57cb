"""SqliteLogger: transitions in an SQLite database, for queries after the run.

One database can hold many runs ("sessions"); each logger opens a new session:

- `Definitions(session_id, date, xml_tree)`: the tree of the session (with `_uid`s);
- `Nodes(session_id, node_uid, fullpath)`: which uid is which node;
- `Transitions(timestamp, session_id, node_uid, duration, state, extra_data)`:
  `timestamp` in microseconds since the epoch, `state` the new status (0..4),
  `duration` the microseconds the node spent in its previous status since its last
  transition (NULL for its first), `extra_data` free text (unused here).
So "how long did MoveArm run?" is
`SELECT duration FROM Transitions JOIN Nodes USING(session_id, node_uid)
 WHERE fullpath LIKE '%MoveArm' AND state IN (2, 3)`.

The callback only queues; a writer thread inserts every 10 ms in one transaction
(sqlite3 objects stay in that thread). `append=False` empties the tables first.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from collections import deque

from ..xml.writer import write_tree_to_xml
from .base import StatusChangeLogger

WRITE_PERIOD_S = 0.01
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS Definitions (session_id INTEGER PRIMARY KEY AUTOINCREMENT, date TEXT NOT NULL, "
    "xml_tree TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS Nodes (session_id INTEGER NOT NULL, node_uid INTEGER NOT NULL, "
    "fullpath TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS Transitions (timestamp INTEGER NOT NULL, session_id INTEGER NOT NULL, "
    "node_uid INTEGER NOT NULL, duration INTEGER, state INTEGER NOT NULL, extra_data TEXT)",
)


class SqliteLogger(StatusChangeLogger):
    def __init__(self, tree, path, append: bool = True):
        self.path = str(path)
        self._queue: deque = deque()
        self._last_change: dict[int, int] = {}
        self._ready = threading.Event()
        self._wake = threading.Event()
        self._running = True
        self._error: BaseException | None = None
        self.session_id: int | None = None
        self._xml = write_tree_to_xml(tree, add_metadata=True, add_builtin_models=False)
        self._nodes = [(node.uid, node.full_path) for node in tree.nodes]
        self._append = append
        self._writer = threading.Thread(target=self._write_loop, name="sqlite-logger", daemon=True)
        self._writer.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        super().__init__(tree)

    def callback(self, timestamp_ns, node, previous, status) -> None:
        now_us = timestamp_ns // 1000
        last = self._last_change.get(node.uid)
        self._last_change[node.uid] = now_us
        self._queue.append((now_us, node.uid, None if last is None else now_us - last, status.value))

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
        connection.executemany("INSERT INTO Nodes (session_id, node_uid, fullpath) VALUES (?, ?, ?)",
                               [(self.session_id, uid, path) for uid, path in self._nodes])
        connection.commit()
        return connection

    def _write(self, connection) -> None:
        queue, rows = self._queue, []
        while queue:
            now_us, uid, duration, state = queue.popleft()
            rows.append((now_us, self.session_id, uid, duration, state))
        if rows:
            connection.executemany("INSERT INTO Transitions (timestamp, session_id, node_uid, duration, state) "
                                   "VALUES (?, ?, ?, ?, ?)", rows)
            connection.commit()

    def _write_loop(self) -> None:
        try:
            connection = self._open()
        except sqlite3.Error as exc:
            from ..errors import BehaviorTreeError
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

    def flush(self) -> None:
        """Ask the writer to insert now (returns at once; close() waits for it)."""
        self._wake.set()

    def close(self) -> None:
        if self._subscription is None:
            return
        super().close()
        self._running = False
        self._wake.set()
        self._writer.join()
