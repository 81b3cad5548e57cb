"""Record what every leaf of a running tree did, and replay it offline, checked event by event.

A `.btlog` keeps status changes only, so finding out why a run went the way it did
("why did the stacker re-stack blue at 41 s?") needs the robot again. A recording
keeps, per tick, what every *leaf* returned and wrote (its status and its blackboard
writes, with the values), and every status change of every node. Replaying it ticks
the same tree file with no robot and no ROS: each leaf is replaced by its recorded
behaviour, the controls and decorators run their real code, and every status change
and blackboard write must come out exactly as recorded. An edited copy of the tree
replays up to its first divergence, which says where (tick, node path) and why
(what the run did, what the replay did).

```python
from robot_tasks.bt.recording import FileRecording, Replayer, read_recording

recording = FileRecording(tree, "run.replay.jsonl", tree_file="trees/main.xml")   # record
recording.begin_tick(1); tree.tick_exactly_once(); ...; recording.close()

result = Replayer(read_recording("run.replay.jsonl")).run(stop_at_tick=40)       # replay
```

| module           | job                                                                    |
|------------------|------------------------------------------------------------------------|
| `recorder.py`    | `TreeRecorder`: hooks into a tree, turns what happens into events      |
| `writes.py`      | which blackboard entries were written since the last look (sequence ids) |
| `paths.py`       | node paths and entry names that survive edits of the tree file          |
| `values.py`      | blackboard values as readable JSON that decodes to the same value       |
| `header.py`      | the first line: tree file and hash, tree ID, payload, blackboard, plugins, leaf types |
| `file.py`        | the JSON-lines file: `RecordingWriter`, `read_recording`               |
| `run.py`         | `FileRecording`: a recorder writing a file (what the tree executor uses) |
| `timers.py`      | Timeout/Delay timers fire in the replay where they fired in the run    |
| `replay_leaf.py` | `ReplayLeaf`: a leaf that repeats its recorded calls                   |
| `replay_tree.py` | the recorded tree file loaded with ReplayLeaves                        |
| `replayer.py`    | `Replayer`: drives the replay and compares it with the recording       |
| `describe.py`    | events as text, and why two events differ                             |

`robot-tasks replay RUN_FOLDER` is the command-line face; the tree executor records
with its `record_dir` parameter (the demos turn it on).
"""
from .file import Recording, RecordingError, RecordingWriter, read_recording
from .recorder import TreeRecorder
from .replayer import Divergence, Replayer, ReplayResult
from .run import FileRecording, initial_blackboard

__all__ = ["Divergence", "FileRecording", "Recording", "RecordingError", "RecordingWriter", "ReplayResult",
           "Replayer", "TreeRecorder", "initial_blackboard", "read_recording"]
