"""A goal whose response never comes is cancelled by its id when the leaf gives up.

Fast DDS drops a service response to a client it has not matched yet (ros2/rmw_fastrtps#467):
the server accepted the goal and moves the robot, the leaf never hears it and fails with
SEND_GOAL_TIMEOUT. The leaf gives every goal its own id, so it can still cancel it. This is
the logic alone: the action client is a stand-in whose goal responses never come (a real
dropped response cannot be produced on demand); the cancel request that a real rclpy client
would send is recorded with the id it carries.
"""
import time

from rclpy.task import Future

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.ros.leaves import register_nodes
from robot_tasks_interfaces.action import MoveToJoints


class SilentServerClient:
    """An ActionClient whose server never answers a goal request."""

    def __init__(self):
        self.sent_ids, self.cancelled_ids = [], []

    def server_is_ready(self) -> bool:
        return True

    def send_goal_async(self, goal, feedback_callback=None, goal_uuid=None):
        self.sent_ids.append(bytes(goal_uuid.uuid))
        return Future()

    def _cancel_goal_async(self, handle):          # what ClientGoalHandle.cancel_goal_async calls
        self.cancelled_ids.append(bytes(handle.goal_id.uuid))
        return Future()


class QuietNode:
    def get_namespace(self) -> str:
        return "/"

    def get_logger(self):
        import logging
        return logging.getLogger("test")


def test_a_goal_without_response_is_cancelled_by_its_id_when_the_leaf_gives_up():
    node, client = QuietNode(), SilentServerClient()
    node._robot_tasks_action_clients = {(MoveToJoints, "move_to_joints"): client}
    factory = BehaviorTreeFactory()
    register_nodes(factory, node)
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><MoveToJoints server_timeout="50" '
        'joint_names="j1" positions="0.5"/></BehaviorTree></root>')
    leaf = tree.root_node
    status, deadline = leaf.execute_tick(), time.monotonic() + 5.0
    while status is NodeStatus.RUNNING and time.monotonic() < deadline:
        time.sleep(0.01)
        status = leaf.execute_tick()
    assert status is NodeStatus.FAILURE and "SEND_GOAL_TIMEOUT" in leaf.last_error
    assert len(client.sent_ids) == 1 and len(client.sent_ids[0]) == 16
    assert client.cancelled_ids == client.sent_ids     # the very goal it sent, by its id
