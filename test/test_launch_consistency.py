"""Each launch/<cell>.launch.xml and config/<cell>.yaml describe the same node set
(franka_stacking, ur10_palletizing).

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
from defusedxml import ElementTree

from robot_tasks.bringup import load_plan, node_argv

REPO = Path(__file__).resolve().parents[1]
CELLS = ("franka_stacking", "ur10_palletizing")     # each: launch/<cell>.launch.xml, config/<cell>.yaml, scene <cell>
SUBSTITUTION = re.compile(r"\$\((find-pkg-share|var) ([\w]+)\)")


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


def launch_description(cell: str):
    root = ElementTree.parse(REPO / "launch" / f"{cell}.launch.xml").getroot()
    assert root.tag == "launch"
    args = {a.get("name"): a.get("default", "") for a in root.findall("arg")}
    nodes = []
    for node in root.findall("node"):
        nodes.append({
            "pkg": node.get("pkg"), "exec": node.get("exec"), "name": node.get("name"),
            "namespace": resolve(node.get("namespace", ""), args),
            "params": [resolve(p.get("from"), args) for p in node.findall("param") if p.get("from")],
            "remaps": [f"{r.get('from')}:={r.get('to')}" for r in node.findall("remap")],
        })
    unknown = {el.tag for el in root} - {"arg", "node"}
    assert not unknown, f"the test does not understand launch elements {unknown}"
    return args, nodes


@pytest.mark.parametrize("cell", CELLS)
def test_every_executable_is_an_entry_point_with_a_main(cell):
    _, nodes = launch_description(cell)
    scripts = console_scripts()
    for node in nodes:
        assert node["pkg"] == "robot_tasks"
        assert node["exec"] in scripts, f"{node['exec']} is not a console script of setup.py"
        package = REPO / "robot_tasks" / "nodes" / node["exec"]      # one package per process
        module = package / "main.py"
        assert module.is_file(), f"{module} missing"
        assert defines_main(module), f"{module} has no main() for the entry point"
        assert (package / "__main__.py").is_file(), f"python -m {package.name} would not start"


@pytest.mark.parametrize("cell", CELLS)
def test_every_params_file_exists_and_is_installed(cell):
    _, nodes = launch_description(cell)
    setup = (REPO / "setup.py").read_text()
    for folder in ("config", "launch"):   # installed to share/robot_tasks/<folder> by a share helper
        assert re.search(rf'share\w*\(\s*"{folder}"', setup), f"setup.py does not install {folder}/"
    for node in nodes:
        assert node["params"], f"node {node['name']} gets no params file"
        for path in node["params"]:
            assert Path(path).is_file(), f"{node['name']}: params file {path} does not exist"
            assert Path(path).parent.name == "config"


@pytest.mark.parametrize("cell", CELLS)
def test_launch_starts_exactly_what_bringup_starts(cell):
    args, nodes = launch_description(cell)
    plan = load_plan(REPO / "config" / f"{cell}.yaml")
    assert [n["name"] for n in nodes] == [s.name for s in plan.nodes]
    for node, spec in zip(nodes, plan.nodes):
        assert node["exec"] == spec.executable, spec.name
        assert node["remaps"] == list(spec.remappings), spec.name
        assert node["namespace"].strip("/") == plan.namespace, spec.name
        assert [Path(p).resolve() for p in node["params"]] == [plan.path]
        # and bringup's own command line carries the same params file and remappings
        argv = node_argv(spec, plan, plan.path)
        assert argv[argv.index("--params-file") + 1] == str(plan.path)
        assert [argv[i + 1] for i, a in enumerate(argv) if a == "-r"][1:] == list(spec.remappings)


@pytest.mark.parametrize("cell", CELLS)
def test_yaml_sections_name_only_nodes_of_the_set(cell):
    plan = load_plan(REPO / "config" / f"{cell}.yaml")
    names = {s.name for s in plan.nodes}
    sections = set(plan.document) - {"bringup", "/**"}
    assert sections <= names, f"parameters for nodes that are not started: {sections - names}"
    assert plan.parameters("tree_executor")["plugins"] == ["robot_tasks.tasks"]
    assert plan.parameters("sim")["scene"] == cell


RVIZ = {"franka_stacking": "franka.rviz", "ur10_palletizing": "ur10.rviz"}


@pytest.mark.parametrize("cell", CELLS)
def test_the_rviz_config_shows_the_robot_the_servers_are_wired_to(cell):
    plan = load_plan(REPO / "config" / f"{cell}.yaml")
    arm = next(s for s in plan.nodes if s.name == "arm_server")
    description = dict(r.split(":=") for r in arm.remappings)["robot_description"]
    topics = re.findall(r"Value: (/[\w/]+)", (REPO / "config" / RVIZ[cell]).read_text())
    assert f"/{description}" in topics and "/camera/image_raw" in topics and "/object_markers" in topics


@pytest.mark.parametrize("cell", CELLS)
def test_rcl_parses_the_yaml_as_a_params_file(cell, tmp_path):
    """What `ros2 launch` / `--params-file` would do with it (no node is created)."""
    from robot_tasks.ros.dds import configure_loopback_dds, pick_free_domain_id

    configure_loopback_dds(pick_free_domain_id(), tmp_path / "ros_log")
    import rclpy
    from rclpy.context import Context
    from rclpy.signals import SignalHandlerOptions

    for path, ok in ((REPO / "config" / f"{cell}.yaml", True), (_broken_copy(tmp_path), False)):
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
