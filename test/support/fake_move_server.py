"""Test node: a MoveToPose action server that "moves" in a few timed steps.

Behaviour, chosen by the goal so one server covers every client-side case:
- frame_id not in ("", "world", "base_link")   -> aborted, INVALID_FRAME
- target z < 0                                 -> aborted, UNREACHABLE
- otherwise `steps` feedback messages, `step_s` apart (parameters), then
  succeeded with final_pose = target (so a test can see the goal arrived intact).
  Cancel is honoured between steps (result CANCELLED).
The execute callback is a coroutine that awaits a timer between steps, so a
SingleThreadedExecutor keeps handling cancel requests while a goal runs.

Run: python test/support/fake_move_server.py --ros-args -p action_name:=move_to_pose
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

from rclpy.action import ActionServer, CancelResponse  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.task import Future  # noqa: E402

from robot_tasks_interfaces.action import MoveToPose  # noqa: E402

Result = MoveToPose.Result


class FakeMoveServer(Node):
    def __init__(self):
        super().__init__("fake_move_server")
        name = self.declare_parameter("action_name", "move_to_pose").value
        self.steps = self.declare_parameter("steps", 3).value
        self.step_s = self.declare_parameter("step_s", 0.05).value
        self.server = ActionServer(self, MoveToPose, name, execute_callback=self.execute,
                                   cancel_callback=lambda _h: CancelResponse.ACCEPT)
        self.get_logger().info(f"serving '{name}'")

    async def sleep(self, seconds: float) -> None:
        done = Future()

        def fire():
            timer.cancel()
            done.set_result(True)

        timer = self.create_timer(seconds, fire)
        await done
        self.destroy_timer(timer)

    async def execute(self, handle):
        goal = handle.request
        frame = goal.target.header.frame_id
        if frame not in ("", "world", "base_link"):
            handle.abort()
            return Result(error_code=Result.INVALID_FRAME, message=f"unknown frame '{frame}'")
        if goal.target.pose.position.z < 0:
            handle.abort()
            return Result(error_code=Result.UNREACHABLE, message="target below the table")
        for step in range(self.steps):
            if handle.is_cancel_requested:
                handle.canceled()
                self.get_logger().info("goal canceled")
                return Result(error_code=Result.CANCELLED, message="cancelled")
            feedback = MoveToPose.Feedback(distance_remaining=float(self.steps - step), phase="executing")
            handle.publish_feedback(feedback)
            await self.sleep(self.step_s)
        if handle.is_cancel_requested:
            handle.canceled()
            self.get_logger().info("goal canceled")
            return Result(error_code=Result.CANCELLED, message="cancelled")
        handle.succeed()
        return Result(error_code=Result.SUCCESS, message="reached", final_pose=goal.target)


def main(args=None) -> int:
    return run_node(FakeMoveServer, args, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main(sys.argv))
