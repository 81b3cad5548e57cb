"""The recording file: JSON lines, the header first, then one event per line.

    {"format": "robot_tasks.bt.recording", "version": 1, "tree_id": "FrankaStacking", ...}
    {"tick": 1, "t": 12.34}
    {"node": "FrankaStacking/franka_stacking", "was": "IDLE", "status": "RUNNING"}
    {"leaf": "FrankaStacking/franka_stacking/open_gripper", "call": 1, "returned": "RUNNING"}
    ...
    {"end": true, "ticks": 1220}

One line per event keeps the file readable with `grep`/`jq` and safe to cut short:
a run that crashed still leaves every event up to the crash (then no "end" line).
`RecordingWriter` buffers lines and writes them at each tick's start (a tick's
events reach the disk when the next tick begins, or at close). `read_recording`
parses a file back, naming the file and line of what it cannot read.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BehaviorTreeError
from .header import FORMAT, VERSION

SUFFIX = ".replay.jsonl"


class RecordingError(BehaviorTreeError):
    """A recording that cannot be read or used; the message names the file."""


class RecordingWriter:
    """A sink for TreeRecorder that writes JSON lines to `path` (created, parents too)."""

    def __init__(self, path: str | Path, header: dict):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "w", encoding="utf-8")
        self._dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
        self._lines: list[str] = [self._dumps(header)]
        self._quoted: dict[str, str] = {}   # node path -> its JSON string (status lines are most lines)
        self.events = 0

    def __call__(self, event: dict) -> None:
        self.events += 1
        if "node" in event and len(event) == 3:
            path = event["node"]
            quoted = self._quoted.get(path)
            if quoted is None:
                quoted = self._quoted[path] = self._dumps(path)
            self._lines.append(f'{{"node":{quoted},"was":"{event["was"]}","status":"{event["status"]}"}}')
            return
        self._lines.append(self._dumps(event))
        if "tick" in event and len(self._lines) > 1:
            self.flush()

    def flush(self) -> None:
        if self._lines and not self._file.closed:
            self._lines.append("")
            self._file.write("\n".join(self._lines))
            self._lines = []

    def close(self) -> None:
        if not self._file.closed:
            self.flush()
            self._file.close()


@dataclass
class Recording:
    """A recording read back: its header, its events, and where it came from."""

    path: Path
    header: dict
    events: list[dict] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return bool(self.events) and self.events[-1].get("end") is True

    @property
    def ticks(self) -> int:
        return sum(1 for event in self.events if "tick" in event)


def read_recording(path: str | Path) -> Recording:
    """Parse a recording file; RecordingError names the file (and line) of a problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordingError(f"{path}: can't read the recording: {exc}") from None
    lines = text.splitlines()
    if not lines:
        raise RecordingError(f"{path}: the recording is empty")
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines):
                break  # a run cut short mid-line: keep what came before
            raise RecordingError(f"{path}:{number}: not a JSON line: {exc.msg}") from None
        if not isinstance(record, dict):
            raise RecordingError(f"{path}:{number}: every line must be a JSON object")
        records.append(record)
    header = records[0] if records else {}
    if header.get("format") != FORMAT:
        raise RecordingError(f"{path}:1: not a tree recording (the first line must have "
                             f"\"format\": \"{FORMAT}\")")
    if header.get("version") != VERSION:
        raise RecordingError(f"{path}:1: recording version {header.get('version')!r}; this replay reads "
                             f"version {VERSION}")
    return Recording(path, header, records[1:])
