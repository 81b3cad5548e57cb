"""Node parameters as a ROS user meets them: `ros2 param describe` / `ros2 param set` over DDS.

A real rclpy AsyncParameterClient (what the ros2 CLI's param verbs call) talks to real node
processes over loopback DDS: the arm_server, and support/parameter_node.py, whose `speed` is
applied at run time. Shown: the descriptor carries the range and read_only; a set of a
read-only parameter is refused by rclpy with its reason; a set of a writable one outside
its rule is refused (outside the descriptor's inclusive range by rclpy, in its words;
inside it but outside the exact rule -- an open bound, a wrong type -- with declare()'s message); `-p rate:=240` (an int for a float) starts.
"""
from __future__ import annotations

import pytest
from paths import SUPPORT
from ros_sim_helpers import wait_for_log

pytestmark = [pytest.mark.ros, pytest.mark.timeout(120)]

INT64_MAX = 2**63 - 1


@pytest.fixture
def parameters(ros_node):
    """`parameters(node_name)`: an AsyncParameterClient of `ros_node` once the node's
    parameter services answer. Made on the executor thread (rclpy entities added while the
    node spins); rclpy 9.1.2's client has no destroy(): its service clients go with the node."""
    from rclpy.parameter_client import AsyncParameterClient

    def client_of(remote: str):
        client = ros_node.run_on_executor(lambda: AsyncParameterClient(ros_node.node, remote),
                                          f"a parameter client of {remote}")
        ros_node.wait_for(client.services_are_ready, f"{remote}'s parameter services", 30.0)
        return Remote(ros_node, client)

    return client_of


class Remote:
    def __init__(self, ros_node, client):
        self.ros_node, self.client = ros_node, client

    def describe(self, *names):
        return self.ros_node.wait_future(self.client.describe_parameters(list(names)), 10.0,
                                         "describe_parameters").descriptors

    def set(self, name, value):
        from rclpy.parameter import Parameter

        response = self.ros_node.wait_future(self.client.set_parameters([Parameter(name, value=value)]),
                                             10.0, "set_parameters")
        return response.results[0]

    def get(self, name):
        from rclpy.parameter import parameter_value_to_python

        response = self.ros_node.wait_future(self.client.get_parameters([name]), 10.0, "get_parameters")
        return parameter_value_to_python(response.values[0])


def test_arm_server_describes_ranges_and_refuses_a_read_only_set(launcher, parameters):
    launcher.start_module("robot_tasks.nodes.arm_server", "arm_server", params={"robot": "panda"})
    arm = parameters("/arm_server")
    scaling, steps, ik = arm.describe("velocity_scaling", "bounded_min_steps", "ik_method")

    assert scaling.read_only and steps.read_only and ik.read_only
    assert [(r.from_value, r.to_value, r.step) for r in scaling.floating_point_range] == [(0.0, 1.0, 0.0)]
    assert "(range in (0, 1])" in scaling.description     # the open bound: exact in the text only
    assert [(r.from_value, r.to_value, r.step) for r in steps.integer_range] == [(1, INT64_MAX, 0)]
    assert not ik.floating_point_range and not ik.integer_range and "one of pinv, dls" in ik.description

    refused = arm.set("velocity_scaling", 0.7)
    assert not refused.successful
    assert refused.reason == "Trying to set a read-only parameter: velocity_scaling."
    assert arm.get("velocity_scaling") == 0.5


def test_a_writable_parameter_refuses_values_outside_its_rule(launcher, parameters):
    proc = launcher.start_script(SUPPORT / "parameter_node.py", "parameter_node", params={"rate": 240})
    node = parameters("/parameter_node")
    wait_for_log(proc, "rate 240.0")                      # an int given for a float starts the node
    rate, speed = node.describe("rate", "speed")
    assert rate.read_only and not speed.read_only
    assert [(r.from_value, r.to_value) for r in speed.floating_point_range] == [(0.0, 1.0)]

    too_big = node.set("speed", 1.5)         # outside the descriptor's range: rclpy refuses first
    assert not too_big.successful
    assert too_big.reason == "Parameter speed out of range Min: 0.0, Max: 1.0, value: 1.5"
    zero = node.set("speed", 0.0)                         # inside rclpy's [0, 1], outside (0, 1]
    assert not zero.successful
    assert zero.reason == "parameter_node: parameter 'speed' must be a finite number in (0, 1], got 0.0"
    word = node.set("speed", "fast")                      # dynamic typing: the rule checks the type
    assert not word.successful and "must be a finite number in (0, 1], got 'fast'" in word.reason
    assert node.get("speed") == 0.5

    assert node.set("speed", 0.25).successful
    wait_for_log(proc, "speed now 0.25")
    assert node.set("speed", 1).successful                # an int for a float, at run time too
    wait_for_log(proc, "speed now 1.0")
    refused = node.set("rate", 200.0)
    assert not refused.successful and refused.reason == "Trying to set a read-only parameter: rate."
