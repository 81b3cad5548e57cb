"""Run any task's demo knowing only its name: the one door for `robot-tasks demo`, the
episode benches and the speed table.

The task's spec (robot_tasks/tasks/<package>/task.py, found by robot_tasks.tasks.catalog)
names its demo, a DemoTask, which the one episode runner (runner.py) runs; with no
`timeout` given, the task's own default (DemoTask.timeout: the press's 180 s), else the
runner's.

    code = run_task_demo("ur10_palletizing", seed=3, disturb="tilt", out=Path("runs"), rtf=0)

Returns the demo's exit code: 0 when graded correct on the sim's ground truth, 1 otherwise.
A name, disturbance or object the task does not know is a TaskError naming the known ones.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from robot_tasks.tasks.catalog import task_spec
from robot_tasks.tasks.errors import TaskError


def run_task_demo(name: str, *, seed: int = 0, disturb: str | None = None, pick_object: str | None = None,
                  out: Path = Path("runs"), rtf: float = 1.0, timeout: float | None = None,
                  config: Path | None = None, foxglove: bool = False, gui: bool = False, render: bool = True,
                  say: Callable[[str], None] = print, nodes=None) -> int:
    """`nodes`: a running node set to reuse (robot_tasks/demo/node_set.py), episode runner only."""
    from robot_tasks.demo.runner import DemoOptions, run_demo
    from robot_tasks.tasks.episode import DemoTask

    spec = task_spec(name)
    if disturb is not None and disturb not in spec.disturbances:
        raise TaskError(f"{name} knows --disturb {', '.join(spec.disturbances) or 'none'}, not {disturb}")
    if pick_object is not None and pick_object not in spec.objects:
        raise TaskError(f"{name} picks {', '.join(spec.objects) or 'no chosen object'}, not {pick_object}")
    demo = spec.load_demo()
    if not isinstance(demo, DemoTask):
        raise TaskError(f"{name}'s spec names {spec.demo}, which is not a DemoTask (robot_tasks/tasks/episode.py)")
    options = DemoOptions(task=demo, seed=seed, disturb=disturb, out=out, rtf=rtf, foxglove=foxglove, gui=gui,
                          pick_object=pick_object, render=render)
    if timeout is not None:
        options.timeout = timeout
    elif demo.timeout is not None:
        options.timeout = demo.timeout
    if config is not None:
        options.config = config
    return run_demo(options, say=say, nodes=nodes)
