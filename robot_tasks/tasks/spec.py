"""What the rest of the project needs to know about a task, written once in its package.

A task is a package under `robot_tasks/tasks/` (stacking/, palletizing/, ...) with a module
`task.py` that defines `TASK`, a `TaskSpec`. The CLI's `demo`, the episode benches and the
speed table find tasks through `robot_tasks.tasks.catalog`, so a new task is picked up by
adding its package, with nothing to edit elsewhere.

The spec is plain data and names its demo by a "module:attribute" path, resolved only when
a demo runs: a task package stays pure (no ROS, no demo runner imported), as the layers ask.

    name          the task's one name: the sim scene, config/<name>.yaml, launch/<name>.launch.xml,
                  trees/<name>.xml, `robot-tasks demo <name>` and the run folder's prefix
    tree_id       the BehaviorTree the ExecuteTree goal names
    leaves        "module:function" registering its BT leaves on a factory ("" when its tree
                  uses only shared and ROS leaves); robot_tasks.tasks.register_nodes calls it
    demo          "module:attribute" of its demo, a DemoTask (robot_tasks/tasks/episode.py), which
                  the one episode runner (robot_tasks/demo/runner.py) runs
    disturbances  the --disturb modes its demo knows
    objects       the objects it can be asked to pick (--object), first the default
    items         the report.json key of the graded items (cubes, bins, stacks), if any
    targets       bench targets in %: per mode ("none" for undisturbed) and "items"
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class TaskSpec:
    name: str
    tree_id: str
    demo: str
    leaves: str = ""
    disturbances: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    items: str | None = None
    targets: MappingProxyType = field(default_factory=lambda: MappingProxyType({"none": 95.0}))

    @property
    def modes(self) -> tuple[str | None, ...]:
        """None (undisturbed) and every disturbance."""
        return (None, *self.disturbances)

    def target(self, mode: str | None) -> float | None:
        """The bench's success target in % for `mode` (None: undisturbed)."""
        return self.targets.get(mode or "none")

    def load_demo(self):
        """The object `demo` names (imported now, not when the spec is read)."""
        return self.load(self.demo)

    @staticmethod
    def load(path: str):
        """The object a "module:attribute" path names."""
        module, _, attribute = path.partition(":")
        return getattr(importlib.import_module(module), attribute)


def targets(**percent) -> MappingProxyType:
    """A read-only {mode: %} for TaskSpec.targets."""
    return MappingProxyType(dict(percent))
