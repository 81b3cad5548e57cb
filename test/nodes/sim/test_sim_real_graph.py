"""Each cell's sim offers the graph its real bringup offers (names, types, direction).

Every config/*_graph.yaml with `cells` lists, per cell, what a real installation serves:
the arm's joint_trajectory_controller and state topics (franka_arm_graph.yaml,
ur10_arm_graph.yaml), franka_gripper (franka_gripper_graph.yaml) and the UR's
io_and_status_controller (ur10_io_graph.yaml); the sim of that scene must serve each entry
with the same type. (franka_press_graph.yaml, the controller_manager part, is checked with
its controller list in test_sim_node_press.py.) The UR list's pins are the cell config's.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from rclpy.action import get_action_server_names_and_types_by_node

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(300)]

CONFIG = Path(__file__).resolve().parents[3] / "config"
GRAPHS = [graph for graph in (yaml.safe_load(path.read_text()) for path in sorted(CONFIG.glob("*_graph.yaml")))
          if "cells" in graph]
KINDS = ("actions", "services", "published", "subscribed")
CELLS = sorted({cell for graph in GRAPHS for cell in graph["cells"]})


def expected_for(cell: str) -> list[tuple[str, str, str]]:
    """(kind, full name, type) of every entry the real bringup of `cell` offers."""
    entries = []
    for graph in GRAPHS:
        for namespace in graph["cells"].get(cell, []):
            for kind in KINDS:
                entries += [(kind, f"/{namespace}/{e['name']}", e["type"]) for e in graph.get(kind, [])]
    return entries


def missing_from_sim(node, expected) -> list:
    actions = dict(get_action_server_names_and_types_by_node(node, "sim", "/"))
    services = dict(node.get_service_names_and_types_by_node("sim", "/"))
    published = dict(node.get_publisher_names_and_types_by_node("sim", "/"))
    subscribed = dict(node.get_subscriber_names_and_types_by_node("sim", "/"))
    offered = {"actions": actions, "services": services, "published": published, "subscribed": subscribed}
    return [entry for entry in expected if entry[2] not in offered[entry[0]].get(entry[1], [])]


@pytest.mark.parametrize("cell", CELLS)
def test_the_sim_offers_the_real_bringups_gripper_and_io_graph(cell, launcher, ros_node):
    launcher.start_module("robot_tasks.nodes.sim", "sim",
                          params={"scene": cell, "camera_rate": 0.0, "object_rate": 0.0})
    ros_node.wait_for_node("sim", timeout=60.0)
    expected = expected_for(cell)
    assert expected
    left = []

    def all_there() -> bool:
        left[:] = missing_from_sim(ros_node.node, expected)
        return not left

    try:
        ros_node.wait_for(all_there, "the sim's gripper / IO graph", 30.0)
    except Exception:
        raise AssertionError(f"{cell}: the sim does not offer {left}") from None


def test_the_graph_files_are_found():
    assert {name for graph in GRAPHS for name in graph["cells"]} >= {"franka_stacking", "ur10_palletizing"}
    assert len(GRAPHS) == 4


def test_the_io_graphs_pins_are_the_cell_configs():
    pins = next(graph for graph in GRAPHS if "pins" in graph)["pins"]
    config = yaml.safe_load((CONFIG / "ur10_palletizing.yaml").read_text())
    sim, server = config["sim"]["ros__parameters"], config["gripper_server"]["ros__parameters"]
    assert (sim["vacuum_output_pin"], sim["vacuum_sensor_pin"], sim["conveyor_output_pin"]) == \
        (pins["vacuum_output"], pins["vacuum_sensor"], pins["conveyor_output"])
    assert (server["vacuum_output_pin"], server["vacuum_sensor_pin"]) == (pins["vacuum_output"], pins["vacuum_sensor"])
    tree = (CONFIG.parent / "trees" / "ur10_palletizing.xml").read_text()
    assert f'pin="{pins["conveyor_output"]}"' in tree and f"digital_in_states.{pins['vacuum_sensor']}.state" in tree
