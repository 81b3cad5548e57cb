"""robot_tasks.process.plan and command_line: reading the bringup YAML, command lines, overrides, clear errors."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from robot_tasks.process import (
    BringupError,
    check_executables,
    child_environment,
    load_plan,
    node_argv,
    parse_set_option,
    with_overrides,
)

CONFIG = Path(__file__).resolve().parents[2] / "config" / "franka_stacking.yaml"


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "plan.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_franka_stacking_plan():
    plan = load_plan(CONFIG)
    assert [s.name for s in plan.nodes] == ["sim", "state_publisher", "arm_server", "gripper_server",
                                            "perception_server", "tree_executor"]
    assert [s.name for s in plan.optional] == ["foxglove_bridge"]
    arm = plan.nodes[2]
    assert arm.executable == "arm_server" and ("joint_states", "panda/joint_states") in arm.remap_pairs()
    assert plan.namespace == ""
    check_executables(plan)


def test_argv_has_node_name_namespace_params_and_remaps(tmp_path):
    path = write(tmp_path, """
        bringup:
          ros__parameters:
            namespace: /lab
            nodes: [sim]
            sim: {executable: sim, remappings: ["a:=b"]}
        """)
    plan = load_plan(path)
    argv = node_argv(plan.nodes[0], plan, path, python="py")
    assert argv == ["py", "-m", "robot_tasks.nodes.sim", "--ros-args", "-r", "__node:=sim", "-r", "__ns:=/lab",
                    "--params-file", str(path), "-r", "a:=b"]


DRIVER_PLAN = """
    bringup:
      ros__parameters:
        real_params: cell.real.yaml
        nodes: [sim, arm_server]
        sim: {executable: sim, driver: sim}
        arm_server:
          executable: arm_server
          remappings: ["joint_states:=panda/joint_states"]
          real_remappings: ["joint_states:=/joint_states"]
    """


def test_driver_real_drops_the_sim_takes_the_real_names_and_reads_the_real_params_second(tmp_path):
    path = write(tmp_path, DRIVER_PLAN)
    (tmp_path / "cell.real.yaml").write_text("/**:\n  ros__parameters:\n    use_sim_time: false\n")
    sim = load_plan(path)
    assert [s.name for s in sim.nodes] == ["sim", "arm_server"] and sim.driver == "sim"
    assert node_argv(sim.nodes[1], sim, path, python="py")[-4:] == ["--params-file", str(path),
                                                                   "-r", "joint_states:=panda/joint_states"]
    real = load_plan(path, "real")
    assert [s.name for s in real.nodes] == ["arm_server"] and real.driver == "real"
    assert node_argv(real.nodes[0], real, path, python="py")[-6:] == [
        "--params-file", str(path), "--params-file", str(tmp_path / "cell.real.yaml"),
        "-r", "joint_states:=/joint_states"]


@pytest.mark.parametrize("body, driver, message", [
    (DRIVER_PLAN.replace("cell.real.yaml", "missing.yaml"), "real", "driver real needs bringup.real_params"),
    (DRIVER_PLAN, "robot", "driver must be one of sim, real"),
    (DRIVER_PLAN.replace('          real_remappings: ["joint_states:=/joint_states"]\n', ""), "real",
     "has remappings for the sim but no real_remappings"),
    (DRIVER_PLAN.replace("driver: sim", "driver: gazebo"), "sim", "bringup.sim.driver must be one of"),
])
def test_bad_driver_settings_are_reported(tmp_path, body, driver, message):
    path = write(tmp_path, body)
    (tmp_path / "cell.real.yaml").write_text("{}\n")
    with pytest.raises(BringupError, match=message):
        load_plan(path, driver)


@pytest.mark.parametrize("body, message", [
    ("sim: {ros__parameters: {a: 1}}", "needs a 'bringup: ros__parameters:'"),
    ("bringup: {ros__parameters: {nodes: []}}", "non-empty list"),
    ("bringup: {ros__parameters: {nodes: [a, a], a: {executable: sim}}}", "twice"),
    ("bringup: {ros__parameters: {nodes: [a]}}", "bringup.a needs 'executable"),
    ("bringup: {ros__parameters: {nodes: [a], a: {executable: sim, remap: []}}}", "unknown keys"),
    ("bringup: {ros__parameters: {nodes: [a], a: {executable: sim, remappings: [x]}}}", "'x' is not 'from:=to'"),
    ("bringup: {ros__parameters: {nodes: [a], a: {executable: 'x y'}}}", "not a module name"),
    ("bringup: {ros__parameters: {nodes: ['1a'], 1a: {executable: sim}}}", "not a valid ROS node name"),
    ("bringup: {ros__parameters: {namespace: 'a b', nodes: [a], a: {executable: sim}}}", "namespace"),
    ("bringup: {ros__parameters: {nodes: [a], a: {executable: sim, respawn: 'yes'}}}", "respawn must be true or false"),
    ("bringup: {ros__parameters: {nodes: [a], a: {executable: sim, respawn_delay: -1}}}", r"respawn_delay must be seconds"),
    ("bringup: {ros__parameters: {nodes: [a], a: {executable: sim, respawn: true, required: true}}}",
     "cannot be both respawn and required"),
    ("bringup: {ros__parameters: {nodes: [a], optional: [a], a: {executable: sim}}}", "optional names a node"),
    ("bringup: {ros__parameters: {nodes: [a], optional: b, a: {executable: sim}}}", "optional must be a list"),
    ("bringup: {ros__parameters: {nodes: [a], optional: [b], a: {executable: sim}}}", "bringup.b needs"),
    ("[1, 2]", "expected a mapping"),
    ("bringup: {ros__parameters: {nodes: [a}", "not valid YAML"),
])
def test_bad_files_are_reported_with_file_and_key(tmp_path, body, message):
    path = write(tmp_path, body)
    with pytest.raises(BringupError, match=message) as info:
        load_plan(path)
    assert str(path) in str(info.value)


def test_supervision_flags_are_read_per_node():
    specs = {s.name: s for s in load_plan(CONFIG).nodes}
    assert (specs["sim"].required, specs["sim"].respawn) == (True, False)
    assert (specs["arm_server"].respawn, specs["arm_server"].respawn_delay, specs["arm_server"].required) == \
        (True, 2.0, False)


def test_missing_file_and_unknown_executable(tmp_path):
    with pytest.raises(BringupError, match="cannot read"):
        load_plan(tmp_path / "nope.yaml")
    plan = load_plan(write(tmp_path, "bringup: {ros__parameters: {nodes: [a], a: {executable: no_such_node}}}"))
    with pytest.raises(BringupError, match="no module robot_tasks.nodes.no_such_node"):
        check_executables(plan)


def test_overrides_write_a_copy_and_keep_the_rest(tmp_path):
    plan = load_plan(CONFIG)
    out = with_overrides(plan, {"sim": {"seed": 7}, "new_node": {"x": 1}}, tmp_path)
    document = yaml.safe_load(out.read_text())
    assert document["sim"]["ros__parameters"]["seed"] == 7
    assert document["sim"]["ros__parameters"]["scene"] == "franka_stacking"
    assert document["new_node"]["ros__parameters"] == {"x": 1}
    assert document["bringup"] == plan.document["bringup"]
    assert yaml.safe_load(CONFIG.read_text())["sim"]["ros__parameters"]["seed"] == 0  # original untouched


def test_parse_set_option():
    assert parse_set_option("sim.seed=3") == ("sim", "seed", 3)
    assert parse_set_option("sim.real_time_factor=0.0") == ("sim", "real_time_factor", 0.0)
    assert parse_set_option("tree_executor.plugins=[a, b]") == ("tree_executor", "plugins", ["a", "b"])
    for bad in ("sim", "sim=3", ".seed=3", "sim.=3"):
        with pytest.raises(BringupError, match="NODE.PARAM=VALUE"):
            parse_set_option(bad)


def test_child_environment_adds_dds_settings_and_source_path(monkeypatch):
    monkeypatch.setenv("ROS_LOCALHOST_ONLY", "1")
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = child_environment({"ROS_DOMAIN_ID": "42", "FASTDDS_DEFAULT_PROFILES_FILE": "/p.xml"})
    assert env["ROS_DOMAIN_ID"] == "42" and env["FASTDDS_DEFAULT_PROFILES_FILE"] == "/p.xml"
    assert "ROS_LOCALHOST_ONLY" not in env
    assert env["PYTHONPATH"].split(":")[0] == str(CONFIG.parents[1]) and "/elsewhere" in env["PYTHONPATH"]


def test_cli_dry_run_prints_one_command_per_node(capsys):
    from robot_tasks.cli import main

    assert main(["bringup", str(CONFIG), "--dry-run", "--skip", "perception_server", "--set", "sim.seed=5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split()[2] for line in lines] == [
        "robot_tasks.nodes.sim", "robot_tasks.nodes.state_publisher", "robot_tasks.nodes.arm_server",
        "robot_tasks.nodes.gripper_server", "robot_tasks.nodes.tree_executor",
        "robot_tasks.nodes.peer_watch"]     # the skipped node runs elsewhere: watched as a peer
    assert all("--params-file" in line and str(CONFIG) not in line for line in lines)  # the overridden copy
    assert lines[-1].endswith("-p peers:=[/perception_server]")


def test_skipped_and_named_peers_are_watched_unless_asked_not_to(capsys):
    from robot_tasks.cli import main

    assert main(["bringup", str(CONFIG), "--dry-run", "--skip", "sim", "--peer", "/panda/controller_manager",
                 "--peer", "camera_driver"]) == 0
    watch = capsys.readouterr().out.strip().splitlines()[-1]
    assert "robot_tasks.nodes.peer_watch" in watch and "__node:=peer_watch_" in watch
    assert watch.endswith("-p peers:=[/sim, /panda/controller_manager, /camera_driver]")
    assert main(["bringup", str(CONFIG), "--dry-run", "--skip", "sim", "--no-peer-watch"]) == 0
    assert "peer_watch" not in capsys.readouterr().out


def test_optional_nodes_start_only_when_asked(capsys):
    from robot_tasks.cli import main

    assert main(["bringup", str(CONFIG), "--dry-run"]) == 0
    assert "foxglove_bridge" not in capsys.readouterr().out
    assert main(["bringup", str(CONFIG), "--dry-run", "--foxglove"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("bringup: Foxglove: open ws://127.0.0.1:8765")
    assert out[-1].split()[2] == "robot_tasks.nodes.foxglove_bridge"           # started last
    plan = load_plan(CONFIG)
    with pytest.raises(BringupError, match="no optional node 'sim'"):
        plan.enable("sim")


def test_cli_errors_exit_2_with_a_message(capsys, tmp_path):
    from robot_tasks.cli import main

    assert main(["bringup", str(CONFIG), "--skip", "nobody"]) == 2
    assert "no node named nobody" in capsys.readouterr().err
    assert main(["bringup", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["bringup", str(CONFIG), "--set", "oops"]) == 2
    assert "NODE.PARAM=VALUE" in capsys.readouterr().err
