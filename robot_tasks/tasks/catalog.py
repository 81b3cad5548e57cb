"""Every task there is, found by looking: each package under robot_tasks/tasks with a `task`
module defining `TASK` (robot_tasks/tasks/spec.py), as the CLI finds its commands.

    from robot_tasks.tasks.catalog import task_spec, tasks
    [spec.name for spec in tasks()]        # alphabetical
    task_spec("franka_stacking").disturbances
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from robot_tasks.tasks.errors import TaskError
from robot_tasks.tasks.spec import TaskSpec


class UnknownTask(TaskError):
    """A task name no package defines."""


@cache
def tasks() -> tuple[TaskSpec, ...]:
    """The spec of every task package, by task name."""
    import robot_tasks.tasks as package

    specs = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"{package.__name__}.{info.name}.task")
        except ModuleNotFoundError as exc:
            if exc.name == f"{package.__name__}.{info.name}.task":
                continue                  # a package of shared code, not a task
            raise
        spec = getattr(module, "TASK", None)
        if not isinstance(spec, TaskSpec):
            raise TaskError(f"{module.__file__}: defines no TASK = TaskSpec(...)")
        specs.append(spec)
    return tuple(sorted(specs, key=lambda spec: spec.name))


def task_names() -> tuple[str, ...]:
    return tuple(spec.name for spec in tasks())


def task_spec(name: str) -> TaskSpec:
    """The spec of task `name`; UnknownTask naming the known tasks otherwise."""
    for spec in tasks():
        if spec.name == name:
            return spec
    raise UnknownTask(f"no task {name!r}; known: {', '.join(task_names())}")
