"""Every launch/<name>.launch.xml and its config/<name>.yaml describe the same node set.

`ros2 launch` is not installable here, so the launch file is checked statically: every
executable it names is a console script of setup.py (and a module with main()), every
params file exists and is installed, and its nodes/namespaces/remappings are exactly
what `robot-tasks bringup` starts from the YAML. The YAML itself is parsed by rcl, as
a node started with `--params-file` would.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml
from defusedxml import ElementTree

from robot_tasks.process import load_plan, node_argv

REPO = Path(__file__).resolve().parents[1]
LAUNCH_FILES = sorted((REPO / "launch").glob("*.launch.xml"))
PAIRS = [pytest.param(launch, REPO / "config" / f"{launch.name.removesuffix('.launch.xml')}.yaml",
                      id=launch.name.removesuffix(".launch.xml")) for launch in LAUNCH_FILES]
STACKING_LAUNCH = REPO / "launch" / "franka_stacking.launch.xml"
STACKING_CONFIG = REPO / "config" / "franka_stacking.yaml"


def has_foxglove(launch: Path) -> bool:
    """Does the launch file declare the `foxglove` argument (the optional Foxglove bridge)?"""
    return any(a.get("name") == "foxglove" for a in ElementTree.parse(launch).getroot().findall("arg"))


PAIRS_WITH_OPTIONS = [pytest.param(*p.values, False, id=p.id) for p in PAIRS] + \
    [pytest.param(*p.values, True, id=f"{p.id}-foxglove") for p in PAIRS if has_foxglove(p.values[0])]
SUBSTITUTION = re.compile(r"\$\((find-pkg-share|var) ([\w]+)\)")
EQUALS = re.compile(r"^\$\(equals (\S+) (\S+)\)$")


def setup_py_nodes() -> list[str]:
    """The NODES list of setup.py, read with ast (setup.py is never executed)."""
    tree = ast.parse((REPO / "setup.py").read_text())
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(getattr(t, "id", None) == "NODES" for t in stmt.targets):
            return list(ast.literal_eval(stmt.value))
    raise AssertionError("setup.py has no NODES list")


def console_scripts() -> set[str]:
    """Entry-point names of setup.py: 'robot-tasks' plus one per NODES entry, as its
    comprehension `f"{n} = {PACKAGE}.nodes.{n}.main:main" for n in NODES` builds them."""
    text = (REPO / "setup.py").read_text()
    assert 'f"{n} = {PACKAGE}.nodes.{n}.main:main" for n in NODES' in text, "entry-point template changed"
    return set(setup_py_nodes()) | {"robot-tasks"}


def defines_main(module: Path) -> bool:
    """A top-level `def main` or `from x import main` (what the entry point calls)."""
    for stmt in ast.parse(module.read_text()).body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "main":
            return True
        if isinstance(stmt, ast.ImportFrom) and any((a.asname or a.name) == "main" for a in stmt.names):
            return True
    return False


def resolve(text: str, args: dict[str, str]) -> str:
    """Expand $(var X) from the launch args and $(find-pkg-share robot_tasks) to the
    source tree (setup.py installs config/ and launch/ into share/robot_tasks as they are)."""
    def one(match):
        kind, name = match.groups()
        if kind == "var":
            assert name in args, f"$(var {name}) is not a declared <arg>"
            return resolve(args[name], args)
        assert name == "robot_tasks", f"find-pkg-share of another package: {name}"
        return str(REPO)
    return SUBSTITUTION.sub(one, text)


def test_every_launch_file_has_its_config_and_every_bringup_config_its_launch_file():
    assert {"franka_stacking", "franka_press"} <= {p.id for p in PAIRS}
    for param in PAIRS:
        assert param.values[1].is_file(), f"{param.values[0].name} has no {param.values[1].name}"
    for config in (REPO / "config").glob("*.yaml"):
        if "bringup" in (yaml.safe_load(config.read_text()) or {}):
            assert (REPO / "launch" / f"{config.stem}.launch.xml").is_file(), f"{config.name} has no launch file"


def condition_holds(node, args: dict[str, str]) -> bool:
    """A node's `if`/`unless`: "true"/"false" or `$(equals a b)`, after $(var) expansion."""
    for attribute, wanted in (("if", True), ("unless", False)):
        text = node.get(attribute)
        if text is None:
            continue
        text = resolve(text, args)
        equals = EQUALS.match(text)
        value = equals.group(1) == equals.group(2) if equals else text.lower() in ("true", "1")
        assert equals or text.lower() in ("true", "false", "1", "0"), f"cannot evaluate {attribute}={text!r}"
        if value != wanted:
            return False
    return True


def launch_description(launch: Path, overrides: dict[str, str] | None = None):
    """(args, the nodes `launch` starts with these argument values)."""
    root = ElementTree.parse(launch).getroot()
    assert root.tag == "launch"
    args = {a.get("name"): a.get("default", "") for a in root.findall("arg")}
    assert set(overrides or {}) <= set(args), "override of an undeclared <arg>"
    args.update(overrides or {})
    for let in root.findall("let"):          # in document order, each under its condition
        if condition_holds(let, args):
            args[let.get("name")] = resolve(let.get("value"), args)
    nodes = []
    for node in root.findall("node"):
        if not condition_holds(node, args):
            continue
        nodes.append({
            "pkg": node.get("pkg"), "exec": node.get("exec"), "name": node.get("name"),
            "namespace": resolve(node.get("namespace", ""), args),
            "params": [resolve(p.get("from"), args) for p in node.findall("param") if p.get("from")],
            # an identity remap (a name the driver keeps) is no remap
            "remaps": [f"{r.get('from')}:={resolve(r.get('to'), args)}" for r in node.findall("remap")
                       if resolve(r.get("to"), args) != r.get("from")],
            "respawn": node.get("respawn", "false") == "true",
            "respawn_delay": float(node.get("respawn_delay", "0.0")),
            "required": node.get("on_exit") == "shutdown",
            "values": {p.get("name"): p.get("value") for p in node.findall("param") if p.get("name")},
            "args": node.get("args", ""),
        })
    unknown = {el.tag for el in root} - {"arg", "let", "node"}
    assert not unknown, f"the test does not understand launch elements {unknown}"
    return args, nodes


@pytest.mark.parametrize("launch, config", PAIRS)
def test_every_executable_is_an_entry_point_with_a_main(launch, config):
    _, nodes = launch_description(launch, {"foxglove": "true"} if has_foxglove(launch) else None)
    scripts = console_scripts()
    for node in nodes:
        assert node["pkg"] == "robot_tasks"
        assert node["exec"] in scripts, f"{node['exec']} is not a console script of setup.py"
        package = REPO / "robot_tasks" / "nodes" / node["exec"]      # one package per process
        module = package / "main.py"
        assert module.is_file(), f"{module} missing"
        assert defines_main(module), f"{module} has no main() for the entry point"
        assert (package / "__main__.py").is_file(), f"python -m {package.name} would not start"


@pytest.mark.parametrize("launch, config", PAIRS)
def test_every_params_file_exists_and_is_installed(launch, config):
    _, nodes = launch_description(launch)
    setup = (REPO / "setup.py").read_text()
    for folder in ("config", "launch"):   # installed to share/robot_tasks/<folder> by a share helper
        assert re.search(rf'share\w*\(\s*"{folder}"', setup), f"setup.py does not install {folder}/"
    for node in nodes:
        assert node["params"], f"node {node['name']} gets no params file"
        for path in node["params"]:
            assert Path(path).is_file(), f"{node['name']}: params file {path} does not exist"
            assert Path(path).parent.name == "config"


@pytest.mark.parametrize("driver", ["sim", "real"])
@pytest.mark.parametrize("launch, config, foxglove", PAIRS_WITH_OPTIONS)
def test_launch_starts_exactly_what_bringup_starts(launch, config, foxglove, driver):
    """By default, and with the optional Foxglove bridge (foxglove:=true / --foxglove) where the
    pair has one; with the sim and with the real drivers (driver:=real / --driver real: no sim,
    the real bringup's names, the cell's .real.yaml read second)."""
    overrides = {"driver": driver, **({"foxglove": "true"} if foxglove else {})}
    args, nodes = launch_description(launch, overrides)
    plan = load_plan(config, driver)
    if foxglove:
        plan.enable("foxglove_bridge")
    assert [n["name"] for n in nodes] == [s.name for s in plan.nodes]
    for node, spec in zip(nodes, plan.nodes):
        assert node["exec"] == spec.executable, spec.name
        assert node["remaps"] == list(spec.remappings), spec.name
        # supervision: respawn / respawn_delay / required (launch: on_exit="shutdown")
        assert (node["respawn"], node["respawn_delay"], node["required"]) == \
            (spec.respawn, spec.respawn_delay, spec.required), spec.name
        assert node["namespace"].strip("/") == plan.namespace, spec.name
        second = plan.overlay or plan.path          # the sim's launch reads the cell's file twice: harmless
        assert [Path(p).resolve() for p in node["params"]] == [plan.path, second]
        # and bringup's own command line carries the same params files and remappings
        argv = node_argv(spec, plan, plan.path)
        files = [argv[i + 1] for i, a in enumerate(argv) if a == "--params-file"]
        assert files == [str(plan.path)] + ([str(plan.overlay)] if plan.overlay else [])
        assert [argv[i + 1] for i, a in enumerate(argv) if a == "-r"][1:] == list(spec.remappings)


@pytest.mark.parametrize("launch, config", PAIRS)
def test_yaml_sections_name_only_nodes_of_the_set(launch, config):
    plan = load_plan(config)
    names = {s.name for s in plan.nodes + plan.optional}
    sections = set(plan.document) - {"bringup", "/**"}
    assert sections <= names, f"parameters for nodes that are not started: {sections - names}"
    assert plan.parameters("sim")["scene"] == config.stem     # the file is named after its scene
    if config.stem == "franka_stacking":
        assert plan.parameters("tree_executor")["plugins"] == ["robot_tasks.tasks"]


@pytest.mark.parametrize("launch, config", PAIRS)
def test_rcl_parses_the_yaml_as_a_params_file(launch, config, tmp_path):
    """What `ros2 launch` / `--params-file` would do with it (no node is created)."""
    from robot_tasks.ros.dds import configure_loopback_dds
    from robot_tasks.ros.domains import pick_free_domain_id

    configure_loopback_dds(pick_free_domain_id(), tmp_path / "ros_log")
    import rclpy
    from rclpy.context import Context
    from rclpy.signals import SignalHandlerOptions

    real = config.with_name(f"{config.stem}.real.yaml")
    for path, ok in ((config, True), (real, True), (_broken_copy(tmp_path), False)):
        context = Context()
        try:
            if ok:
                rclpy.init(args=["t", "--ros-args", "--params-file", str(path)], context=context,
                           signal_handler_options=SignalHandlerOptions.NO)
            else:
                with pytest.raises(Exception, match="params file"):
                    rclpy.init(args=["t", "--ros-args", "--params-file", str(path)], context=context,
                               signal_handler_options=SignalHandlerOptions.NO)
        finally:
            rclpy.try_shutdown(context=context)


def _broken_copy(tmp_path) -> Path:
    """A bringup section without ros__parameters: the form rcl rejects (why ours has it)."""
    broken = tmp_path / "broken.yaml"
    broken.write_text("bringup:\n  nodes:\n    - name: sim\n      executable: sim\n")
    return broken


def test_the_state_publisher_switch():
    """state_publisher:=robot_tasks (default) runs ours; :=ros runs ROS 2's, with the same
    frame names (prefix panda/) and the same world -> base pose as the YAML's."""
    _, ours = launch_description(STACKING_LAUNCH)
    assert [n["name"] for n in ours if n["exec"] == "state_publisher"] == ["state_publisher"]
    assert not [n for n in ours if n["pkg"] != "robot_tasks"]
    _, theirs = launch_description(STACKING_LAUNCH, {"state_publisher": "ros"})
    assert "state_publisher" not in [n["name"] for n in theirs]
    by_exec = {n["exec"]: n for n in theirs if n["pkg"] != "robot_tasks"}
    assert set(by_exec) == {"robot_state_publisher", "static_transform_publisher"}
    rsp = by_exec["robot_state_publisher"]
    assert rsp["namespace"].strip("/") == "panda" and rsp["values"]["frame_prefix"] == "panda/"
    params = load_plan(STACKING_CONFIG).parameters("state_publisher")
    assert params["robots"] == ["panda"]
    x, y, z, *quaternion = params["base_poses"]
    static = by_exec["static_transform_publisher"]["args"].split()
    assert static == ["--z", str(z), "--frame-id", "world", "--child-frame-id", "panda/panda_link0"]
    assert (x, y, quaternion) == (0.0, 0.0, [0.0, 0.0, 0.0, 1.0])


@pytest.mark.parametrize("launch, config", PAIRS)
def test_the_rviz_config_shows_the_robot_the_servers_are_wired_to(launch, config):
    """config/<cell>.rviz shows the robot_description every arm server reads (and, where the
    cell has a camera, its image and the object markers)."""
    plan = load_plan(config)
    arms = [s for s in plan.nodes if s.executable == "arm_server"]
    topics = re.findall(r"Value: (/[\w/]+)", config.with_suffix(".rviz").read_text())
    assert arms
    for arm in arms:
        description = dict(r.split(":=") for r in arm.remappings)["robot_description"]
        assert f"/{description}" in topics, topics
    if plan.parameters("sim").get("camera_rate", 5.0) > 0:
        assert "/camera/image_raw" in topics and "/object_markers" in topics, topics
