"""Does my goal still exist? Watching the server that accepted it.

An action client learns how its goal ended from the result service, and waits for that
answer as long as the goal runs. Two ways the answer never comes:

- the server process dies without a word (SIGKILL, a crash, a pulled cable). DDS keeps its
  endpoints in the graph until their lease runs out (Fast DDS: tens of seconds), so
  `server_is_ready()` stays true all that time;
- meanwhile a supervisor starts a new server under the same name (`robot-tasks bringup`
  respawns a dead node after 2 s). It is ready at once, and it has never heard of the goal.

A `GoalWatch` tells the client within about a second of either becoming visible. When the
goal is accepted it records who was serving it: the GIDs of the action's status publishers
(every action server has one, `<action>/_action/status`). Then, every `period_s`:

- none of those publishers is in the graph any more -> the accepting server is gone (it
  ended cleanly, or its lease ran out);
- a status publisher appears that was not there -> a server that did not accept the goal
  has joined. The watch asks for the goal's result again; the new server answers a result
  request for a goal it does not know at once, with STATUS_UNKNOWN (rclpy's ActionServer
  `_execute_get_result_request`; rclcpp_action's server does the same). That answer is the
  proof that the goal no longer exists: a server that knows the goal holds the request
  until the goal ends, and one that did not accept it never answers anything else.

`lost(now)` returns None while the goal may still exist, else a sentence saying why it does
not. Used by RosClient.run_goal (the CLI commands, the demo runner) and the tree's action
leaves (robot_tasks/ros/leaves/action_node.py), so every client ends the same way.
"""
from __future__ import annotations

PERIOD_S = 0.5     # wall s between looks at the graph
STATUS_SUFFIX = "/_action/status"


def status_publishers(node, topic: str) -> frozenset:
    """The GIDs of the publishers of `topic` now in the graph."""
    return frozenset(bytes(info.endpoint_gid) for info in node.get_publishers_info_by_topic(topic))


class GoalWatch:
    """Watches one accepted goal (`handle`) of `action_name` (see the module docstring)."""

    def __init__(self, node, action_name: str, handle, period_s: float = PERIOD_S, now: float = 0.0):
        self.node, self.handle, self.period_s = node, handle, float(period_s)
        self.action = node.resolve_topic_name(action_name)     # remaps applied, as rcl_action does
        self.topic = self.action + STATUS_SUFFIX
        self.accepted_by = status_publishers(node, self.topic)
        self._seen = set(self.accepted_by)
        self._probes: list = []
        self._next = now + self.period_s

    def lost(self, now: float) -> str | None:
        """None while the goal may still exist; else why it does not, in words."""
        from action_msgs.msg import GoalStatus

        for probe in self._probes:
            if probe.done() and probe.exception() is None and probe.result().status == GoalStatus.STATUS_UNKNOWN:
                return (f"the action server was restarted: a new server answers on '{self.action}' "
                        f"and does not know this goal (the one that accepted it is gone)")
        if now < self._next:
            return None
        self._next = now + self.period_s
        present = status_publishers(self.node, self.topic)
        if self.accepted_by and not self.accepted_by & present:
            return "the action server that accepted this goal disappeared from the graph"
        newcomers = present - self._seen
        if newcomers:
            self._seen |= newcomers
            self._probes.append(self.handle.get_result_async())
        return None
