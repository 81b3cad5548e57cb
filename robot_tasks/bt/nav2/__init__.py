"""Nav2's generic control nodes, for trees written in Nav2's style (opt-in).

Nav2 (`nav2_behavior_tree/plugins/control`) adds a few control nodes on top of
BT.CPP's that its navigation trees rely on. They are not BT.CPP built-ins, so a
factory knows them only after

```python
from robot_tasks.bt.nav2 import register_nav2_nodes
register_nav2_nodes(factory)
```

| ID | file | in one line |
|---|---|---|
| `PipelineSequence` | `pipeline_sequence.py` | re-ticks finished children while a later one runs |
| `RoundRobin` | `round_robin.py` | a Fallback that resumes after the last child tried |
| `RecoveryNode` | `recovery_node.py` | try child 1; on failure run child 2 and try again |

Each follows the C++ of Nav2 since its move to BT.CPP 4.5 (Jazzy and later, with
SKIPPED handled); the module docstrings say which behaviour and where it differs
from a look-alike BT.CPP node.
"""
from __future__ import annotations

from .pipeline_sequence import PipelineSequenceNode
from .recovery_node import RecoveryNode
from .round_robin import RoundRobinNode

NAV2_NODES = {
    "PipelineSequence": PipelineSequenceNode,
    "RoundRobin": RoundRobinNode,
    "RecoveryNode": RecoveryNode,
}


def register_nav2_nodes(factory) -> None:
    """Register PipelineSequence, RoundRobin and RecoveryNode in `factory`."""
    for registration_id, cls in NAV2_NODES.items():
        factory.register_node_type(cls, registration_id)


__all__ = ["NAV2_NODES", "PipelineSequenceNode", "RecoveryNode", "RoundRobinNode", "register_nav2_nodes"]
