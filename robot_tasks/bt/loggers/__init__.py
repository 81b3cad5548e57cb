"""Loggers on the engine's status-change hook, one per file (BT.CPP `loggers/`).

| class | file | writes |
|---|---|---|
| `StdCoutLogger` | `console.py` | one line per change to a stream |
| `FileLogger2` | `file_logger2.py` | a `.btlog` Groot2 replays |
| `SqliteLogger` | `sqlite_logger.py` | an SQLite database of sessions and transitions |
| `MinitraceLogger` | `minitrace.py` | a Chrome trace (chrome://tracing) |

All derive from `StatusChangeLogger` (`base.py`): create one on a tree to start
logging, `close()` (or leave the `with` block) to stop. What each costs per tick is
measured by `bench/bt_loggers.py`.
"""
from .base import StatusChangeLogger
from .console import StdCoutLogger
from .file_logger2 import FileLogger2, read_btlog
from .minitrace import MinitraceLogger
from .sqlite_logger import SqliteLogger

__all__ = ["FileLogger2", "MinitraceLogger", "SqliteLogger", "StatusChangeLogger", "StdCoutLogger", "read_btlog"]
