"""DetectObjects leaf: ask the perception server what it sees."""
from __future__ import annotations

from robot_tasks.bt import InputPort, NodeStatus, OutputPort
from robot_tasks.ros.leaves.action_node import RosActionNode
from robot_tasks.ros.leaves.values import parse_string_list
from robot_tasks.ros.yaml_message import message_to_dict


class DetectObjects(RosActionNode):
    """Detect objects (robot_tasks_interfaces/action/DetectObjects).

    Writes `objects` (a list of dicts shaped like DetectedObject: label, id, pose,
    size, confidence, orientation_class), `object` (the most confident one, or
    the port is left untouched when there is none) and `count`. With
    `require_any="true"` an empty result is a FAILURE.
    """

    action_type = "robot_tasks_interfaces/action/DetectObjects"
    default_action_name = "detect_objects"

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("labels", default="", description="'red_cube;bin': labels to keep; empty = all"),
            InputPort("min_confidence", float, default=0.0, description="drop detections below, [0, 1]"),
            InputPort("timeout", float, default=0.0, description="s to wait for fresh images; 0 = server default"),
            InputPort("require_any", bool, default=False, description="fail when nothing is detected"),
            OutputPort("objects", description="list of detections (dicts)"),
            OutputPort("object", description="the most confident detection (dict)"),
            OutputPort("count", int, description="number of detections"),
        ]

    def set_goal(self, goal) -> bool:
        goal.labels = parse_string_list(self.get_input("labels"), "labels")
        goal.min_confidence = self.get_input("min_confidence")
        goal.timeout = self.get_input("timeout")
        return True

    def on_result(self, result, status) -> NodeStatus:
        failed = self.fail_unless_succeeded(result)
        if failed is not None:
            return failed
        objects = [message_to_dict(obj) for obj in result.objects]
        outputs = self.config.output_ports
        if "objects" in outputs:
            self.set_output("objects", objects)
        if "count" in outputs:
            self.set_output("count", len(objects))
        if objects and "object" in outputs:
            self.set_output("object", max(objects, key=lambda o: o["confidence"]))
        if not objects and self.get_input("require_any"):
            return self.fail_with_result("no object detected")
        return NodeStatus.SUCCESS
