"""The bringup plan: which nodes to start, from one YAML file -- the same file `ros2 launch` uses.

The file is a ROS 2 params file (`<node>: ros__parameters: {...}`), so a launch file can
hand it to every node unchanged. The node list lives in it too, as the parameters of a
node called `bringup` that never runs (rcl parses it like any other entry):

```yaml
bringup:
  ros__parameters:
    namespace: ""                       # "" = the root namespace
    driver: sim                         # sim | real: who drives the robots (`--driver real`)
    real_params: my_cell.real.yaml      # driver real: a params file read after this one
    nodes: [sim, arm_server]            # start order; stopped in reverse
    optional: [foxglove_bridge]         # started only when asked (`--foxglove`), after the rest
    arm_server:
      executable: arm_server            # robot_tasks.nodes.<executable> / setup.py entry point
      remappings: ["joint_states:=panda/joint_states"]          # driver sim
      real_remappings: ["joint_states:=/joint_states"]          # driver real: the real bringup's names
      respawn: true                     # restart it when it exits (launch: respawn="true")
      respawn_delay: 2.0                # s before the restart (launch: respawn_delay="2.0")
    sim:
      executable: sim
      required: true                    # its exit stops everything (launch: on_exit="shutdown")
      driver: sim                       # started only with this driver
sim:
  ros__parameters: {scene: franka_stacking}
```

**One switch from the sim to the real robots** (`driver`, like the launch files'
`driver:=sim|real`): with `real`, the nodes marked `driver: sim` (the sim) are not
started, every node takes its `real_remappings` (the names the real drivers' bringup
documents) instead of its `remappings`, and `real_params` -- a second params file read
after this one (`use_sim_time: false`, the real robot's joint and frame names) -- is
given to every node.

`load_plan(path, driver)` reads and checks it (errors name the file and the key) into a
:class:`BringupPlan` of :class:`NodeSpec`; `with_overrides` writes a copy with some
parameters changed (`bringup --set`, the demos); `peer_watch_spec` adds the node that
reports peers on other computers. Turning a NodeSpec into a command line is
:mod:`robot_tasks.process.command_line`'s job; running it, :mod:`robot_tasks.process.supervisor`'s.
"""
from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from robot_tasks.errors import RobotTasksError

PLAN_KEY = "bringup"
PARAMS_KEY = "ros__parameters"
FOXGLOVE_NODE = "foxglove_bridge"       # the optional node `--foxglove` starts


class BringupError(RobotTasksError, ValueError):
    """The bringup file is unusable; the message names the file and the key."""


@dataclass(frozen=True)
class NodeSpec:
    """One node to start: its ROS node name, the executable and its remappings ('a:=b')."""

    name: str
    executable: str
    remappings: tuple[str, ...] = ()
    respawn: bool = False        # start again after it exits (ros2 launch: respawn)
    respawn_delay: float = 0.0   # s to wait before that restart (ros2 launch: respawn_delay)
    required: bool = False       # its exit stops every node (ros2 launch: on_exit="shutdown")
    driver: str = ""             # "" = runs with any driver; "sim" | "real": only with that one
    parameters: tuple[tuple[str, str], ...] = ()   # (name, YAML value) given on its command line (-p)

    @property
    def module(self) -> str:
        return f"robot_tasks.nodes.{self.executable}"

    def remap_pairs(self) -> list[tuple[str, str]]:
        return [tuple(r.split(":=", 1)) for r in self.remappings]  # type: ignore[misc]


@dataclass
class BringupPlan:
    """The parsed file: where it is, the namespace, the nodes, and the whole document."""

    path: Path
    namespace: str
    nodes: list[NodeSpec]
    document: dict = field(default_factory=dict)
    optional: list[NodeSpec] = field(default_factory=list)
    driver: str = "sim"
    overlay: Path | None = None  # driver real: the real_params file, read after `path`

    def enable(self, name: str) -> None:
        """Start optional node `name` too (after the others). BringupError if not optional."""
        spec = next((s for s in self.optional if s.name == name), None)
        if spec is None:
            raise BringupError(f"{self.path}: no optional node '{name}' in {PLAN_KEY}.optional "
                               f"({', '.join(s.name for s in self.optional) or 'none'})")
        if spec not in self.nodes:
            self.nodes.append(spec)

    def parameters(self, node_name: str) -> dict:
        """The `ros__parameters` of one node ({} when the file has none for it)."""
        section = self.document.get(node_name) or {}
        return dict(section.get(PARAMS_KEY) or {})


DRIVERS = ("sim", "real")


def load_plan(path: str | os.PathLike, driver: str | None = None) -> BringupPlan:
    """Read and check a bringup YAML file for `driver` (None: the file's `driver`, else
    "sim"). Raises BringupError naming file and key."""
    path = Path(path)
    where = str(path)
    try:
        document = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise BringupError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise BringupError(f"{where}{line}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(document, dict):
        raise BringupError(f"{where}: expected a mapping of node names to their parameters")
    plan = (document.get(PLAN_KEY) or {}).get(PARAMS_KEY) if isinstance(document.get(PLAN_KEY), dict) else None
    if not isinstance(plan, dict):
        raise BringupError(f"{where}: needs a '{PLAN_KEY}: {PARAMS_KEY}:' section with the node list")
    namespace = plan.get("namespace", "")
    if not isinstance(namespace, str) or (namespace and not _valid_name(namespace.strip("/"))):
        raise BringupError(f"{where}: {PLAN_KEY}.namespace must be a ROS name or \"\", got {namespace!r}")
    names = plan.get("nodes")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise BringupError(f"{where}: {PLAN_KEY}.nodes must be a non-empty list of node names")
    if len(set(names)) != len(names):
        raise BringupError(f"{where}: {PLAN_KEY}.nodes names a node twice: {names}")
    optional_names = plan.get("optional", [])
    if not isinstance(optional_names, list) or not all(isinstance(n, str) for n in optional_names):
        raise BringupError(f"{where}: {PLAN_KEY}.optional must be a list of node names")
    if set(optional_names) & set(names) or len(set(optional_names)) != len(optional_names):
        raise BringupError(f"{where}: {PLAN_KEY}.optional names a node twice or one of {PLAN_KEY}.nodes")
    driver = driver or plan.get("driver", "sim")
    if driver not in DRIVERS:
        raise BringupError(f"{where}: driver must be one of {', '.join(DRIVERS)}, got {driver!r}")
    overlay = None
    if driver == "real":
        real_params = plan.get("real_params")
        if not isinstance(real_params, str) or not (path.parent / real_params).is_file():
            raise BringupError(f"{where}: driver real needs {PLAN_KEY}.real_params, a params file next to "
                               f"this one with the real robot's settings (got {real_params!r})")
        overlay = (path.parent / real_params).resolve()
    nodes = [_node_spec(where, name, plan.get(name), driver) for name in names]
    optional = [_node_spec(where, name, plan.get(name), driver) for name in optional_names]
    return BringupPlan(path.resolve(), namespace.strip("/"), [n for n in nodes if n.driver in ("", driver)],
                       document, [n for n in optional if n.driver in ("", driver)], driver, overlay)


def _node_spec(where: str, name: str, entry: Any, driver: str = "sim") -> NodeSpec:
    key = f"{PLAN_KEY}.{name}"
    if not _valid_name(name):
        raise BringupError(f"{where}: node name '{name}' is not a valid ROS node name")
    if not isinstance(entry, dict) or not isinstance(entry.get("executable"), str):
        raise BringupError(f"{where}: {key} needs 'executable: <name>' (one of the packages under robot_tasks/nodes/)")
    allowed = {"executable", "remappings", "real_remappings", "respawn", "respawn_delay", "required", "driver"}
    unknown = set(entry) - allowed
    if unknown:
        raise BringupError(f"{where}: {key} has unknown keys {sorted(unknown)} (allowed: {', '.join(sorted(allowed))})")
    for flag in ("respawn", "required"):
        if not isinstance(entry.get(flag, False), bool):
            raise BringupError(f"{where}: {key}.{flag} must be true or false, got {entry[flag]!r}")
    delay = entry.get("respawn_delay", 0.0)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay < 3600:
        raise BringupError(f"{where}: {key}.respawn_delay must be seconds in [0, 3600), got {delay!r}")
    if entry.get("respawn") and entry.get("required"):
        raise BringupError(f"{where}: {key} cannot be both respawn and required (a required node's exit "
                           f"stops everything, a respawned one is started again)")
    executable = entry["executable"]
    if not executable.isidentifier():
        raise BringupError(f"{where}: {key}.executable '{executable}' is not a module name")
    only = entry.get("driver", "")
    if only not in ("", *DRIVERS):
        raise BringupError(f"{where}: {key}.driver must be one of {', '.join(DRIVERS)}, got {only!r}")
    for list_key in ("remappings", "real_remappings"):
        rules = entry.get(list_key, [])
        if not isinstance(rules, list):
            raise BringupError(f"{where}: {key}.{list_key} must be a list of 'from:=to' strings")
        for rule in rules:
            if not isinstance(rule, str) or rule.count(":=") != 1 or not all(rule.split(":=")):
                raise BringupError(f"{where}: {key}.{list_key}: '{rule}' is not 'from:=to'")
    if driver == "real" and entry.get("remappings") and "real_remappings" not in entry:
        raise BringupError(f"{where}: {key} has remappings for the sim but no real_remappings: write the "
                           f"names the real drivers' bringup uses")
    remappings = entry.get("real_remappings" if driver == "real" else "remappings", [])
    return NodeSpec(name, executable, tuple(remappings), bool(entry.get("respawn", False)), float(delay),
                    bool(entry.get("required", False)), only)


def foxglove_url(plan: BringupPlan) -> str:
    """Where the bridge listens: its address and port from the file, else its defaults,
    and the layout to import (config/<demo>.foxglove.json beside the file)."""
    from robot_tasks.nodes.foxglove_bridge.parameters import DEFAULT_ADDRESS, DEFAULT_PORT

    params = plan.parameters(FOXGLOVE_NODE)
    url = f"ws://{params.get('address', DEFAULT_ADDRESS)}:{params.get('port', DEFAULT_PORT)}"
    layout = plan.path.with_suffix(".foxglove.json")
    return url + (f" (Foxglove: Open connection > Foxglove WebSocket; layout {layout})" if layout.is_file() else "")


def _valid_name(name: str) -> bool:
    return bool(name) and all(part and (part[0].isalpha() or part[0] == "_") and
                              all(c.isalnum() or c == "_" for c in part) for part in name.split("/"))


def check_executables(plan: BringupPlan) -> None:
    """Every executable must be a module under robot_tasks/nodes (a clear error otherwise)."""
    for spec in plan.nodes:
        if importlib.util.find_spec(spec.module) is None:
            raise BringupError(f"{plan.path}: {PLAN_KEY}.{spec.name}.executable: no module {spec.module}")


def with_overrides(plan: BringupPlan, overrides: dict[str, dict[str, Any]], out_dir: Path) -> Path:
    """Write a copy of the file with some parameters changed ({node: {param: value}});
    return its path. Used by `bringup --set` and the demo (e.g. the sim's seed)."""
    document = yaml.safe_load(plan.path.read_text())
    for node, params in overrides.items():
        section = document.setdefault(node, {}) or {}
        document[node] = section
        section.setdefault(PARAMS_KEY, {}).update(params)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / plan.path.name
    out.write_text(yaml.safe_dump(document, sort_keys=False))
    return out


def parse_set_option(text: str) -> tuple[str, str, Any]:
    """'sim.seed=3' -> ('sim', 'seed', 3); the value is read as YAML."""
    target, sep, value = text.partition("=")
    node, dot, param = target.partition(".")
    if not sep or not dot or not node or not param:
        raise BringupError(f"--set '{text}': expected NODE.PARAM=VALUE, e.g. sim.seed=3")
    return node, param, yaml.safe_load(value)


PEER_WATCH = "peer_watch"


def peer_watch_spec(plan: BringupPlan, peers: list[str], tag: str) -> NodeSpec:
    """The node that reports `peers` (node names, relative ones in the file's namespace) as they
    come and go in the ROS graph (robot_tasks/nodes/peer_watch). `tag` makes its name unique
    among the bringups of one domain (each computer of a cell may run one)."""
    namespace = f"/{plan.namespace}" if plan.namespace else ""
    names = [peer if peer.startswith("/") else f"{namespace}/{peer}" for peer in peers]
    return NodeSpec(f"{PEER_WATCH}_{tag}", PEER_WATCH, parameters=(("peers", "[" + ", ".join(names) + "]"),))
