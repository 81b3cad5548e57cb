"""A goal known only by its id: cancelling it, and learning it was accepted without the answer.

An action goal starts with a request and its response: "accepted" or "rejected". That
response can be lost. Fast DDS sends a service response only to a client reader the server
has already matched, and drops it after a short wait otherwise (ros2/rmw_fastrtps#467): a
client created a moment ago -- a fresh `robot-tasks send-goal`, a tree executor's first goal,
a peer on another computer still being discovered -- can have its goal accepted, the robot
moving, and never hear so.

The client chose the goal's id (a UUID in the request), so it can still speak about the goal
without the response, with a handle made from the id alone:

- **cancel it** (`cancel_by_id`): a cancel request carries only the id. A server that never
  accepted the goal answers "unknown goal", which is harmless.
- **ask whether the server has it** (`LateAcceptance`): request the goal's *result*. A server
  that knows the goal holds that request until the goal ends (rclpy's ActionServer and
  rclcpp_action's both do), then answers with the result. A server that does not know it --
  it never got the goal, or rejected it (a rejected goal is not kept) -- answers at once, with
  STATUS_UNKNOWN. So a probe that is still unanswered after a round trip's grace means the
  goal is held; the probe's future then *is* the goal's result request, and the client
  follows the goal as if the response had come.

By then the server has matched the client (it received its requests long ago), so the
probe's answer is not lost the way the first response was.
"""
from __future__ import annotations

PROBE_AFTER_S = 1.0   # s without a goal response before the first probe (a normal answer takes ms)
GRACE_S = 0.5         # s a probe may take to be answered "unknown"; still unanswered: the goal is held


def handle_for_id(client, action_type, goal_id):
    """A ClientGoalHandle of `client` for goal `goal_id`, as if the server had accepted it."""
    from rclpy.action.client import ClientGoalHandle

    response = action_type.Impl.SendGoalService.Response(accepted=True)
    return ClientGoalHandle(client, goal_id, response)


def cancel_by_id(client, action_type, goal_id):
    """Ask the server to cancel goal `goal_id` without having its goal response. Returns the
    cancel future (a server that never accepted the goal answers ERROR_UNKNOWN_GOAL_ID)."""
    return handle_for_id(client, action_type, goal_id).cancel_goal_async()


def is_unknown_goal(result_future) -> bool:
    """True when a finished result request says the server does not know the goal."""
    from action_msgs.msg import GoalStatus

    return (result_future.done() and result_future.exception() is None
            and result_future.result().status == GoalStatus.STATUS_UNKNOWN)


class LateAcceptance:
    """Was goal `goal_id`, sent at `sent_at` and still without a response, accepted anyway?

    Call `check(now)` while waiting for the response. It sends a result request for the goal
    (a probe) once `probe_after_s` have passed, and returns `(handle, result_future)` when the
    server has the goal: the probe is still unanswered `grace_s` after it was sent (the server
    holds it: the goal runs), or it was answered with the goal's end. An "unknown" answer means
    not (yet): the next probe follows `probe_after_s` later. None while undecided.
    """

    def __init__(self, client, action_type, goal_id, sent_at: float,
                 probe_after_s: float = PROBE_AFTER_S, grace_s: float = GRACE_S):
        self.handle = handle_for_id(client, action_type, goal_id)
        self.probe_after_s, self.grace_s = float(probe_after_s), float(grace_s)
        self._next_probe = sent_at + self.probe_after_s
        self._probe = None
        self._probe_sent_at = 0.0
        self.probes = 0

    @property
    def probing(self) -> bool:
        """A probe is out and not answered yet (wait for `check` to decide)."""
        return self._probe is not None and not self._probe.done()

    def check(self, now: float):
        if self._probe is None:
            if now >= self._next_probe:
                self._probe, self._probe_sent_at = self.handle.get_result_async(), now
                self.probes += 1
            return None
        if self._probe.done():
            if self._probe.exception() is None and not is_unknown_goal(self._probe):
                return self.handle, self._probe          # it already ended: this is its result
            self._probe, self._next_probe = None, now + self.probe_after_s
            return None
        if now - self._probe_sent_at >= self.grace_s:
            return self.handle, self._probe              # held by the server: the goal runs
        return None
