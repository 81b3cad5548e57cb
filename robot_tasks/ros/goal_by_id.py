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
  STATUS_UNKNOWN.

An unanswered request alone proves nothing: a server whose executor is busy (a slow goal
callback) answers nothing at all. So each probe is a pair, sent back to back on the same
result service: first for our goal, then for a random id nobody used (the control). The
server takes requests from one client in order, so once the control has been answered
"unknown", our request was looked at before it: still unanswered, the server holds it -- it
has the goal -- and the probe's future *is* the goal's result request; the client follows the
goal as if the response had come. Both unanswered: undecided (the client's own deadline
applies, as without the probe).

By then the server has matched the client (it received its requests long ago), so the
probes' answers are not lost the way the first response was.
"""
from __future__ import annotations

import uuid

PROBE_AFTER_S = 1.0   # s without a goal response before the first probe (a normal answer takes ms)


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

    Call `check(now)` while waiting for the response. Once `probe_after_s` have passed it sends
    a probe (our goal's result request, then a control's; module docstring) and returns
    `(handle, result_future)` when the server has the goal: our request was answered with the
    goal's end, or the control was answered "unknown" while ours is still held. Ours answered
    "unknown" means not (yet): the next probe follows `probe_after_s` later. None while
    undecided.
    """

    def __init__(self, client, action_type, goal_id, sent_at: float, probe_after_s: float = PROBE_AFTER_S):
        self.client, self.action_type = client, action_type
        self.handle = handle_for_id(client, action_type, goal_id)
        self.probe_after_s = float(probe_after_s)
        self._next_probe = sent_at + self.probe_after_s
        self._ours = self._control = None

    def check(self, now: float):
        from unique_identifier_msgs.msg import UUID

        if self._ours is None:
            if now >= self._next_probe:
                self._ours = self.handle.get_result_async()          # sent first: looked at first
                nobody = UUID(uuid=list(uuid.uuid4().bytes))
                self._control = handle_for_id(self.client, self.action_type, nobody).get_result_async()
            return None
        if self._ours.done():
            if self._ours.exception() is None and not is_unknown_goal(self._ours):
                return self.handle, self._ours                      # it already ended: this is its result
            self._ours, self._next_probe = None, now + self.probe_after_s
            return None
        if is_unknown_goal(self._control):
            return self.handle, self._ours                          # held by the server: the goal runs
        return None
