"""tools/install_layout.py names every path of a colcon install tree that a ROS user would miss.

The install tree here is written by hand, the way colcon lays out an ament_python package
(one prefix per package, isolated layout); each test removes one piece and expects the
report to name it. The real build is checked by test_colcon_build.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from paths import REPO

sys.path.insert(0, str(REPO / "tools"))
from install_layout import problems  # noqa: E402

LAUNCH = """<launch>
  <arg name="params_file" default="$(find-pkg-share robot_tasks)/config/cell.yaml"/>
  <node pkg="robot_tasks" exec="sim" name="sim"><param from="$(var params_file)"/></node>
  <node pkg="tf2_ros" exec="static_transform_publisher" name="world"/>
</launch>
"""
PACKAGE_XML = """<package format="3"><name>robot_tasks</name>
  <exec_depend>rclpy</exec_depend><exec_depend>tf2_ros</exec_depend></package>
"""
ENTRY_POINTS = "[console_scripts]\nrobot-tasks = robot_tasks.cli:main\nsim = robot_tasks.nodes.sim.main:main\n"


def write(path: Path, text: str = "", executable: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(0o755)
    return path


@pytest.fixture
def workspace(tmp_path):
    """A source checkout and the complete install tree colcon makes of it."""
    source, prefix = tmp_path / "src" / "robot_tasks", tmp_path / "install" / "robot_tasks"
    for root in (source, prefix / "share" / "robot_tasks"):
        write(root / "package.xml", PACKAGE_XML)
        write(root / "launch" / "cell.launch.xml", LAUNCH)
        write(root / "config" / "cell.yaml", "sim:\n  ros__parameters: {}\n")
        write(root / "trees" / "examples" / "hello.xml", "<root/>")
    write(prefix / "share" / "ament_index" / "resource_index" / "packages" / "robot_tasks")
    write(prefix / "lib" / "python3.11" / "site-packages" / "robot_tasks-0.1.0-py3.11.egg-info"
          / "entry_points.txt", ENTRY_POINTS)
    for script in ("robot-tasks", "sim"):
        write(prefix / "lib" / "robot_tasks" / script, "#!/bin/sh\n", executable=True)
    return tmp_path / "install", source, prefix


def test_a_complete_install_tree_has_no_problems(workspace):
    install, source, _ = workspace
    assert problems(install, source) == []


def test_a_missing_node_executable_is_named_by_its_path(workspace):
    install, source, prefix = workspace
    (prefix / "lib" / "robot_tasks" / "sim").unlink()
    found = problems(install, source)
    missing = prefix / "lib" / "robot_tasks" / "sim"
    assert f"missing executable {missing} (entry point sim)" in found
    assert any(p.startswith("cell.launch.xml: exec sim of robot_tasks") and str(missing) in p for p in found)


def test_a_script_that_is_not_executable_counts_as_missing(workspace):
    install, source, prefix = workspace
    (prefix / "lib" / "robot_tasks" / "robot-tasks").chmod(0o644)
    assert problems(install, source) == [
        f"missing executable {prefix / 'lib' / 'robot_tasks' / 'robot-tasks'} (entry point robot-tasks)"]


def test_a_find_pkg_share_path_missing_from_share_is_named(workspace):
    install, source, prefix = workspace
    (prefix / "share" / "robot_tasks" / "config" / "cell.yaml").unlink()
    found = problems(install, source)
    assert any("$(find-pkg-share robot_tasks)/config/cell.yaml: missing" in p
               and str(prefix / "share" / "robot_tasks" / "config" / "cell.yaml") in p for p in found)


def test_a_tree_left_out_of_share_is_named(workspace):
    install, source, prefix = workspace
    (prefix / "share" / "robot_tasks" / "trees" / "examples" / "hello.xml").unlink()
    assert problems(install, source) == [
        f"missing {prefix / 'share' / 'robot_tasks' / 'trees' / 'examples' / 'hello.xml'} "
        f"(from trees/examples/hello.xml)"]


def test_without_the_ament_index_entry_the_package_does_not_exist_for_ros(workspace):
    install, source, _ = workspace
    (install / "robot_tasks" / "share" / "ament_index" / "resource_index" / "packages" / "robot_tasks").unlink()
    [problem] = problems(install, source)
    assert "registers robot_tasks" in problem and "share/ament_index/resource_index/packages/robot_tasks" in problem


def test_a_launch_file_naming_an_undeclared_package_is_reported(workspace):
    install, source, _ = workspace
    write(source / "package.xml", PACKAGE_XML.replace("<exec_depend>tf2_ros</exec_depend>", ""))
    assert problems(install, source) == [
        "cell.launch.xml: pkg tf2_ros is neither in the workspace nor in package.xml"]
