"""Each cell's sim offers the gripper / IO graph its real bringup offers (names and types).

config/franka_gripper_graph.yaml (franka_gripper) and config/ur10_io_graph.yaml (the UR's
io_and_status_controller) list, per cell, what a real installation serves; the sim of that
scene must serve each entry with the same type. The UR list's pins are the cell config's.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from rclpy.action import get_action_server_names_and_types_by_node

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(300)]

CONFIG = Path(__file__).resolve().parents[3] / "config"
GRAPHS = [yaml.safe_load((CONFIG / name).read_text()) for name in ("franka_gripper_graph.yaml", "ur10_io_graph.yaml")]
CELLS = sorted({cell for graph in GRAPHS for cell in graph["cells"]})


def expected_for(cell: str) -> list[tuple[str, str, str]]:
    """(kind, full name, type) of every entry the real bringup of `cell` offers."""
    entries = []
    for graph in GRAPHS:
        for namespace in graph["cells"].get(cell, []):
            for kind in ("actions", "services", "published"):
                entries += [(kind, f"/{namespace}/{e['name']}", e["type"]) for e in graph.get(kind, [])]
    return entries


def missing_from_sim(node, expected) -> list:
    actions = dict(get_action_server_names_and_types_by_node(node, "sim", "/"))
    services = dict(node.get_service_names_and_types_by_node("sim", "/"))
    published = dict(node.get_publisher_names_and_types_by_node("sim", "/"))
    offered = {"actions": actions, "services": services, "published": published}
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


def test_the_io_graphs_pins_are_the_cell_configs():
    pins = GRAPHS[1]["pins"]
    config = yaml.safe_load((CONFIG / "ur10_palletizing.yaml").read_text())
    sim, server = config["sim"]["ros__parameters"], config["gripper_server"]["ros__parameters"]
    assert (sim["vacuum_output_pin"], sim["vacuum_sensor_pin"], sim["conveyor_output_pin"]) == \
        (pins["vacuum_output"], pins["vacuum_sensor"], pins["conveyor_output"])
    assert (server["vacuum_output_pin"], server["vacuum_sensor_pin"]) == (pins["vacuum_output"], pins["vacuum_sensor"])
    tree = (CONFIG.parent / "trees" / "ur10_palletizing.xml").read_text()
    assert f'pin="{pins["conveyor_output"]}"' in tree and f"digital_in_states.{pins['vacuum_sensor']}.state" in tree
