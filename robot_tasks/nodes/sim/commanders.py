"""When the nodes that command the sim are up: where the rtf-0 lead bound starts.

The lead bound (lead.py) paces the sim on the nodes' acknowledged clock, the sim time of
their last command. Before their first command there is no such clock, and the sim ran
free: the first goal of an episode is planned, sent through the tree and carried to its
server in wall time, and at rtf 0 the sim raced through seconds of sim time meanwhile
(franka_press: 11.7 sim s for an approach that takes 0.8 s at rtf 1, 2.2x the episode's
sim time in all).

A node that will command the sim is visible in the ROS graph before it sends anything:
an action client subscribes to the action's status topic (the arm and gripper servers to
the trajectory controller's and the hand's actions), and a streaming node publishes on
the sim's command topics (the compliance server's targets). As soon as one is connected
the sim counts that moment as their first acknowledged time, so the bound holds from
there. With nobody connected (a scene settling, a test that only reads /clock) the sim
still runs free. Only the graph is read: the nodes and drivers do nothing new.
"""
from __future__ import annotations

ACTION_STATUS = "/_action/status"
CHECK_PERIOD_S = 0.1        # wall s between looks at the graph until someone is connected


def connected_commanders(node) -> list[str]:
    """The sim's command topics and actions another node is connected to (names)."""
    found = [sub.topic_name for sub in node.subscriptions if sub.get_publisher_count() > 0]
    for topic, _types in node.get_publisher_names_and_types_by_node(node.get_name(), node.get_namespace()):
        if topic.endswith(ACTION_STATUS) and node.count_subscribers(topic) > 0:
            found.append(topic[: -len(ACTION_STATUS)])
    return found


class CommanderWatch:
    """Looks at the graph every CHECK_PERIOD_S (executor thread) until a commander is
    connected or a command came first; then starts `lead` (a LeadBound) there, says so once,
    and stops looking."""

    def __init__(self, node, lead):
        self.node, self.lead = node, lead
        self.timer = node.create_timer(CHECK_PERIOD_S, self._look)

    def _look(self) -> None:
        if self.lead.acked is None:
            names = connected_commanders(self.node)
            if not names:
                return
            t = self.node.ros_time()
            self.lead.start_at(t)
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            self.node.get_logger().info(f"real_time_factor 0: the lead bound holds from sim {t:.2f} s: "
                                        f"{shown} connected")
        self.node.destroy_timer(self.timer)
