"""A goal whose response never comes: followed by its id when the server has it, else
cancelled by its id when the leaf gives up.

Fast DDS drops a service response to a client it has not matched yet (ros2/rmw_fastrtps#467):
the server accepted the goal and moves the robot, the leaf never hears it. The leaf gives
every goal its own id, asks for the goal's result by that id (a server that has the goal holds
the request; one that does not answers STATUS_UNKNOWN at once: robot_tasks/ros/goal_by_id.py),
and either follows the goal or fails with SEND_GOAL_TIMEOUT and cancels it by its id. This is
the logic alone: the action client is a stand-in whose goal responses never come; the result
and cancel requests a real rclpy client would send are recorded with the id they carry.
test/ros/test_lost_goal_response.py drops a real response over DDS.
"""
import time

from action_msgs.msg import GoalStatus
from rclpy.task import Future

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.ros.leaves import register_nodes
from robot_tasks_interfaces.action import MoveToJoints

GetResult = MoveToJoints.Impl.GetResultService.Response


class SilentServerClient:
    """An ActionClient whose server never answers a goal request. `knows_goal`: the server
    has the goal anyway (it holds a result request, answered with `result()` when asked);
    otherwise a result request is answered STATUS_UNKNOWN at once."""

    def __init__(self, knows_goal: bool = False):
        self.knows_goal = knows_goal
        self.sent_ids, self.cancelled_ids, self.result_requests = [], [], []

    def server_is_ready(self) -> bool:
        return True

    def send_goal_async(self, goal, feedback_callback=None, goal_uuid=None):
        self.sent_ids.append(bytes(goal_uuid.uuid))
        return Future()

    def _cancel_goal_async(self, handle):          # what ClientGoalHandle.cancel_goal_async calls
        self.cancelled_ids.append(bytes(handle.goal_id.uuid))
        return Future()

    def _get_result_async(self, handle):           # what ClientGoalHandle.get_result_async calls
        future, goal_id = Future(), bytes(handle.goal_id.uuid)
        self.result_requests.append((goal_id, future))
        if not (self.knows_goal and goal_id in self.sent_ids):    # a goal the server does not have
            future.set_result(GetResult(status=GoalStatus.STATUS_UNKNOWN))
        return future

    def finish_goal(self) -> None:
        result = MoveToJoints.Result(error_code=MoveToJoints.Result.SUCCESS, message="reached")
        for _goal_id, future in self.result_requests:
            if not future.done():
                future.set_result(GetResult(status=GoalStatus.STATUS_SUCCEEDED, result=result))


class BusyServerClient(SilentServerClient):
    """Its server's executor is stuck (a slow goal callback): no request is answered at all."""

    def _get_result_async(self, handle):
        future = Future()
        self.result_requests.append((bytes(handle.goal_id.uuid), future))
        return future


class QuietNode:
    """The parts of an rclpy node the leaf and its GoalWatch use; one server in the graph."""

    def get_namespace(self) -> str:
        return "/"

    def resolve_topic_name(self, name: str) -> str:
        return name if name.startswith("/") else "/" + name

    def get_publishers_info_by_topic(self, _topic: str) -> list:
        return [type("Endpoint", (), {"endpoint_gid": b"server"})()]

    def get_logger(self):
        import logging
        return logging.getLogger("test")


def move_leaf(client, server_timeout_ms: int):
    node = QuietNode()
    node._robot_tasks_action_clients = {(MoveToJoints, "move_to_joints"): client}
    factory = BehaviorTreeFactory()
    register_nodes(factory, node)
    tree = factory.create_tree_from_text(
        f'<root BTCPP_format="4"><BehaviorTree ID="T"><MoveToJoints server_timeout="{server_timeout_ms}" '
        'joint_names="j1" positions="0.5"/></BehaviorTree></root>')
    return tree.root_node


def tick_until(leaf, done, seconds: float = 5.0):
    status, deadline = leaf.execute_tick(), time.monotonic() + seconds
    while status is NodeStatus.RUNNING and not done() and time.monotonic() < deadline:
        time.sleep(0.01)
        status = leaf.execute_tick()
    return status


def test_a_goal_without_response_is_cancelled_by_its_id_when_the_leaf_gives_up():
    client = SilentServerClient(knows_goal=False)
    leaf = move_leaf(client, server_timeout_ms=200)
    status = tick_until(leaf, done=lambda: False)
    assert status is NodeStatus.FAILURE and "SEND_GOAL_TIMEOUT" in leaf.last_error
    assert len(client.sent_ids) == 1 and len(client.sent_ids[0]) == 16
    # it asked whether the server had the goal, by the goal's id (then a control's), and heard "unknown"
    asked = [goal_id for goal_id, _ in client.result_requests]
    assert asked[0] == client.sent_ids[0] and asked[1] not in client.sent_ids
    assert client.cancelled_ids == client.sent_ids     # the very goal it sent, by its id


def test_a_goal_without_response_that_the_server_holds_is_followed_to_its_result():
    client = SilentServerClient(knows_goal=True)
    leaf = move_leaf(client, server_timeout_ms=200)
    # well past server_timeout: the leaf has adopted the goal instead of failing
    status = tick_until(leaf, done=lambda: False, seconds=0.6)
    assert status is NodeStatus.RUNNING, leaf.last_error
    ours = [goal_id for goal_id, _ in client.result_requests if goal_id in client.sent_ids]
    assert ours == client.sent_ids and len(client.result_requests) == 2     # ours and the control
    client.finish_goal()
    assert leaf.execute_tick() is NodeStatus.SUCCESS, leaf.last_error
    assert client.cancelled_ids == []


def test_a_server_too_busy_to_answer_anything_is_not_taken_to_have_the_goal():
    """Neither our request nor the control is answered: undecided, so the leaf keeps its
    deadline and fails as without the probe (the goal is cancelled by its id)."""
    client = BusyServerClient(knows_goal=True)
    leaf = move_leaf(client, server_timeout_ms=200)
    status = tick_until(leaf, done=lambda: False, seconds=2.0)
    assert status is NodeStatus.FAILURE and "SEND_GOAL_TIMEOUT" in leaf.last_error
    assert len(client.result_requests) == 2 and client.cancelled_ids == client.sent_ids
