"""The pick-and-place contract: TaskSpec (what, where, when done) and GraspProfiles (how).

A scripted expert is only as good as its contract. `TaskSpec` says which object to pick,
where it goes (a detected target such as the bowl, or a table point) and the success
tolerance; a `GraspProfile` says how that object is held:

    banana (center_align false): a fixed hand height, yaw_offset, close_force
    both: max_held_width, the widest the fingers may measure on a real grasp of the object
        (wider: they stopped on its shoulder, not around it -- the tree backs off and retries)
    lemon  (center_align true):  the height from the settled object's box,
        fingertip_z  = center_z - drop_fraction * half_height
        grasp_hand_z = max(fingertip_z + hand_to_fingertip, z_max + palm_clearance)

Both come from one YAML file (config/banana_bowl_task.yaml):

```python
contract = load_contract("config/banana_bowl_task.yaml")
spec, profile = contract.task, contract.profile("banana")
```

Every value is checked on load; a bad one raises TaskError naming the file and the key
(`banana_bowl_task.yaml: grasp_profiles.banana.close_force: must be < 0 (closing), got 5`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml

from robot_tasks.tasks.errors import TaskError


@dataclass(frozen=True)
class TaskSpec:
    pick_object: str              # label of the object to pick (a grasp_profiles key)
    place_target: object          # a label (str) or an (x, y) table point
    success_tol: float            # m
    rim_margin: float             # m
    table_top_z: float            # m, world
    pregrasp_height: float        # m above the grasp height
    lift_height: float            # m above the grasp height
    release_clearance: float      # m between the object's lowest point and the rim at release
    retreat_height: float         # m
    max_dq: float                 # rad per command step (lift, transport)
    min_steps: int

    @property
    def place_label(self) -> str | None:
        return self.place_target if isinstance(self.place_target, str) else None


@dataclass(frozen=True)
class GraspProfile:
    name: str
    yaw_offset: float             # rad added to perception's yaw
    center_align: bool
    close_force: float            # N, < 0 = closing
    max_held_width: float         # m: a grasp measuring wider did not close around the object
    hand_to_tool: float           # m: hand frame -> the frame the arm moves
    grasp_hand_z: float = math.nan        # m, world (center_align false)
    drop_fraction: float = math.nan       # (center_align true)
    hand_to_fingertip: float = math.nan   # m (center_align true)
    palm_clearance: float = math.nan      # m (center_align true)


@dataclass(frozen=True)
class Contract:
    task: TaskSpec
    profiles: dict
    source: str

    def profile(self, name: str) -> GraspProfile:
        if name not in self.profiles:
            raise TaskError(f"{self.source}: no grasp profile for {name!r} (known: {', '.join(sorted(self.profiles))})")
        return self.profiles[name]


class _Reader:
    """Reads typed values out of nested mappings; errors name the file and the key path."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, what: str):
        raise TaskError(f"{self.source}: {key}: {what}")

    def mapping(self, data, key: str) -> dict:
        if not isinstance(data, dict):
            self.fail(key, f"must be a mapping, got {type(data).__name__}")
        return data

    def number(self, data: dict, key: str, path: str, minimum: float | None = None,
               maximum: float | None = None, strict: bool = False) -> float:
        if key not in data:
            self.fail(f"{path}{key}", "missing")
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.fail(f"{path}{key}", f"must be a finite number, got {value!r}")
        if minimum is not None and (value <= minimum if strict else value < minimum):
            self.fail(f"{path}{key}", f"must be {'>' if strict else '>='} {minimum:g}, got {value!r}")
        if maximum is not None and (value >= maximum if strict else value > maximum):
            self.fail(f"{path}{key}", f"must be {'<' if strict else '<='} {maximum:g}, got {value!r}")
        return float(value)

    def text(self, data: dict, key: str, path: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            self.fail(f"{path}{key}", f"must be a non-empty string, got {value!r}")
        return value

    def flag(self, data: dict, key: str, path: str) -> bool:
        value = data.get(key)
        if not isinstance(value, bool):
            self.fail(f"{path}{key}", f"must be true or false, got {value!r}")
        return value


def _task(r: _Reader, data) -> TaskSpec:
    d = r.mapping(data, "task")
    target = d.get("place_target")
    if isinstance(target, list):
        if len(target) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                       and math.isfinite(v) for v in target):
            r.fail("task.place_target", f"a point must be [x, y] (two finite numbers), got {target!r}")
        target = (float(target[0]), float(target[1]))
    elif not isinstance(target, str) or not target:
        r.fail("task.place_target", f"must be a label or [x, y], got {target!r}")
    steps = d.get("min_steps")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        r.fail("task.min_steps", f"must be a whole number >= 1, got {steps!r}")
    positive = dict(minimum=0.0, strict=True)
    return TaskSpec(
        pick_object=r.text(d, "pick_object", "task."), place_target=target,
        success_tol=r.number(d, "success_tol", "task.", **positive),
        rim_margin=r.number(d, "rim_margin", "task.", minimum=0.0),
        table_top_z=r.number(d, "table_top_z", "task."),
        pregrasp_height=r.number(d, "pregrasp_height", "task.", **positive),
        lift_height=r.number(d, "lift_height", "task.", **positive),
        release_clearance=r.number(d, "release_clearance", "task.", minimum=0.0),
        retreat_height=r.number(d, "retreat_height", "task.", **positive),
        max_dq=r.number(d, "max_dq", "task.", **positive), min_steps=steps)


def _profile(r: _Reader, name: str, data, hand_to_tool: float) -> GraspProfile:
    path = f"grasp_profiles.{name}."
    d = r.mapping(data, path[:-1])
    center = r.flag(d, "center_align", path)
    common = dict(name=name, yaw_offset=math.radians(r.number(d, "yaw_offset", path, -360.0, 360.0)),
                  center_align=center, hand_to_tool=hand_to_tool,
                  close_force=r.number(d, "close_force", path, maximum=0.0, strict=True),
                  max_held_width=r.number(d, "max_held_width", path, minimum=0.0, strict=True))
    if center:
        return GraspProfile(**common, drop_fraction=r.number(d, "drop_fraction", path, 0.0, 1.0),
                            hand_to_fingertip=r.number(d, "hand_to_fingertip", path, minimum=0.0),
                            palm_clearance=r.number(d, "palm_clearance", path, minimum=0.0))
    return GraspProfile(**common, grasp_hand_z=r.number(d, "grasp_hand_z", path))


def parse_contract(data, source: str) -> Contract:
    """A Contract from the YAML's data; TaskError naming `source` and the key on a bad value."""
    r = _Reader(source)
    data = r.mapping(data, "the file")
    task = _task(r, data.get("task"))
    hand_to_tool = r.number(data, "hand_to_tool", "", minimum=0.0)
    profiles = r.mapping(data.get("grasp_profiles"), "grasp_profiles")
    parsed = {name: _profile(r, name, value, hand_to_tool) for name, value in profiles.items()}
    contract = Contract(task, parsed, source)
    contract.profile(task.pick_object)          # the task's object must have a profile
    return contract


def load_contract(path) -> Contract:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as err:
        raise TaskError(f"{path}: cannot read the task contract ({err.strerror})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise TaskError(f"{path}:{where} not valid YAML ({getattr(err, 'problem', err)})") from None
    return parse_contract(data, path.name)
