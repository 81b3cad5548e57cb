"""Test node: a MoveToJoints action server that records what happens to its goals.

Behaviour (parameters and goal fields pick the case, so one script covers every test):
- `duration_s` (0.3): a goal "moves" for this long, sending feedback every 20 ms,
  then succeeds with positions = the goal's positions;
- goal.positions[0] == 666  -> the goal is rejected;
- goal.positions[0] == 999  -> aborted with INVALID_GOAL "refused by test server";
- cancel requests are accepted; the goal then ends CANCELED;
- `goal_delay_s` (0): the goal callback sleeps this long before accepting, blocking
  the server's executor on purpose (a server too busy to answer in time);
- `lose_goal_responses` (0): the first N accepted goals get no goal response (event
  "goal_response_lost"); they run as usual. That is what a client sees when Fast DDS drops
  the response to a reader it has not matched yet (ros2/rmw_fastrtps#467). Done by taking
  over rclpy's ActionServer handler of goal requests (a private method of rclpy 9.1.2).
- `lose_result_requests` (0): the first N get_result requests are never answered
  (event "result_request_lost"), which is what a client sees when its result
  response is lost in discovery (the server's DDS drops a response to a reader it
  has not matched yet). Done by overriding rclpy's ActionServer handler of result
  requests (a private method of rclpy 9.1.2).
Every event is appended as one JSON line to the file named by the `event_log`
parameter ({"event": "goal"|"cancel_requested"|"canceled"|"succeeded"|"aborted", ...}),
so a test can check what the server saw, even after it was killed.

The execute callback is a coroutine awaiting short timers, so the single-threaded
executor keeps serving cancel requests while a goal runs.

DDS: loopback profile from configure_loopback_dds(); the environment variable
ROBOT_TASKS_TEST_DDS_PROFILE may name another (loopback-checked) profile, e.g. one
with a short lease so that a SIGKILLed server leaves the graph in ~1 s.
"""
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds(profile_file=os.environ.get("ROBOT_TASKS_TEST_DDS_PROFILE") or None)

from action_msgs.msg import GoalInfo  # noqa: E402
from rclpy.action import ActionServer, CancelResponse, GoalResponse  # noqa: E402
from rclpy.action.server import ServerGoalHandle  # noqa: E402
from rclpy.executors import await_or_execute  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.task import Future  # noqa: E402

from robot_tasks_interfaces.action import MoveToJoints  # noqa: E402

Result = MoveToJoints.Result
REJECT, ABORT = 666.0, 999.0


class ForgetfulActionServer(ActionServer):
    """An ActionServer that leaves the first `lose` result requests unanswered, and the
    first `lose_responses` accepted goals without a goal response."""

    def __init__(self, *args, lose: int = 0, on_lost=None, lose_responses: int = 0, on_response_lost=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.lose = lose
        self.on_lost = on_lost
        self.lose_responses = lose_responses
        self.on_response_lost = on_response_lost

    async def _execute_goal_request(self, request_header_and_message):
        if self.lose_responses <= 0:
            return await super()._execute_goal_request(request_header_and_message)
        # accept the goal as rclpy does (goal callback, handle, status, execution), minus the
        # response: the client is left as if DDS had dropped it
        header, request = request_header_and_message
        if await await_or_execute(self._goal_callback, request.goal) != GoalResponse.ACCEPT:
            with self._lock:
                self._handle.send_goal_response(header, self._action_type.Impl.SendGoalService.Response())
            return
        self.lose_responses -= 1
        info = GoalInfo(goal_id=request.goal_id, stamp=self._node.get_clock().now().to_msg())
        key = bytes(request.goal_id.uuid)
        with self._lock:
            handle = ServerGoalHandle(self, info, request.goal)
        self._goal_handles[key] = handle
        self._result_futures[key] = Future()
        self.add_future(self._result_futures[key])
        if self.on_response_lost:
            self.on_response_lost()
        self._handle.publish_status()
        await await_or_execute(self._handle_accepted_callback, handle)

    async def _execute_get_result_request(self, request_header_and_message):
        if self.lose > 0:
            self.lose -= 1
            if self.on_lost:
                self.on_lost()
            return
        await super()._execute_get_result_request(request_header_and_message)


class JointMoveServer(Node):
    def __init__(self):
        super().__init__("joint_move_server")
        name = self.declare_parameter("action_name", "move_to_joints").value
        self.duration = self.declare_parameter("duration_s", 0.3).value
        self.event_log = self.declare_parameter("event_log", "").value
        self.goal_delay = self.declare_parameter("goal_delay_s", 0.0).value
        lose = self.declare_parameter("lose_result_requests", 0).value
        lose_responses = self.declare_parameter("lose_goal_responses", 0).value
        self.server = ForgetfulActionServer(self, MoveToJoints, name, execute_callback=self.execute,
                                            goal_callback=self.on_goal, cancel_callback=self.on_cancel,
                                            lose=lose, on_lost=lambda: self.record("result_request_lost"),
                                            lose_responses=lose_responses,
                                            on_response_lost=lambda: self.record("goal_response_lost"))
        self.get_logger().info(f"serving '{name}'")

    def record(self, event: str, **data) -> None:
        if self.event_log:
            with open(self.event_log, "a") as log:
                log.write(json.dumps({"event": event, "t": time.time(), **data}) + "\n")

    def on_goal(self, goal):
        if goal.positions and goal.positions[0] == REJECT:
            self.record("rejected")
            return GoalResponse.REJECT
        if self.goal_delay > 0:
            time.sleep(self.goal_delay)
        return GoalResponse.ACCEPT

    def on_cancel(self, _handle):
        self.record("cancel_requested")
        return CancelResponse.ACCEPT

    async def sleep(self, seconds: float) -> None:
        done = Future()
        timer = self.create_timer(seconds, lambda: done.done() or done.set_result(True))
        await done
        self.destroy_timer(timer)

    async def execute(self, handle):
        goal = handle.request
        self.record("goal", joint_names=list(goal.joint_names), positions=list(goal.positions))
        if goal.positions and goal.positions[0] == ABORT:
            handle.abort()
            self.record("aborted")
            return Result(error_code=Result.INVALID_GOAL, message="refused by test server")
        end = time.monotonic() + self.duration
        while time.monotonic() < end:
            if handle.is_cancel_requested:
                handle.canceled()
                self.record("canceled")
                return Result(error_code=Result.CANCELLED, message="cancelled")
            handle.publish_feedback(MoveToJoints.Feedback(max_error_remaining=end - time.monotonic(),
                                                          phase="executing"))
            await self.sleep(0.02)
        handle.succeed()
        self.record("succeeded")
        return Result(error_code=Result.SUCCESS, message="reached", joint_names=goal.joint_names,
                      positions=goal.positions)


def main() -> int:
    return run_node(JointMoveServer, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main())
