"""TreeRun: one run of one behavior tree, ticked from outside, with its status journal.

ROS-free: the tree_executor node calls :meth:`TreeRun.tick` from its timer and turns
what this class collects into ROS messages. Separating the two keeps the node thin
and lets the run logic be tested without DDS.

What a run keeps:
- ``tick_count``: ticks of the root so far;
- a journal of status changes (from the engine's status observer), drained with
  :meth:`take_changes`; each change names the node by uid, name, registration id
  and its *tree path*: names from the tree ID down, ``/``-separated
  (``MainTree/Sequence/MoveToPose``), as TreeNodeStatus.path documents;
- :meth:`running_leaves`: the paths of the leaves that are RUNNING now.

The first journal entry set, :meth:`snapshot`, lists every node (IDLE -> IDLE) so a
viewer that joins at the start can draw the whole tree.
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.bt import NodeStatus, Tree
from robot_tasks.bt.recording.paths import node_paths
from robot_tasks.runtime.errors import NodeTickError

FINISHED = (NodeStatus.SUCCESS, NodeStatus.FAILURE, NodeStatus.SKIPPED)


@dataclass(frozen=True)
class StatusChange:
    uid: int
    name: str
    registration_id: str
    path: str
    previous: str
    status: str



def tree_paths(tree: Tree, tree_id: str) -> dict[int, str]:
    """uid -> path of every node: the recording's stable paths (names from the root down, a
    repeated sibling name numbered `name#2`; robot_tasks.bt.recording.paths), so tree_status,
    the demos' status log and a recording name each node alike. A node the walk from the root
    does not reach is named by its full path."""
    paths = node_paths(tree, tree_id)
    for node in tree.nodes:
        paths.setdefault(node.uid, f"{tree_id}/{node.full_path}")
    return paths


class TreeRun:
    """Ticks one tree and records what changed. Not thread-safe: call from one thread."""

    def __init__(self, tree: Tree, tree_id: str):
        self.tree = tree
        self.tree_id = tree_id
        self.tick_count = 0
        self.root_status = NodeStatus.IDLE
        self.paths = tree_paths(tree, tree_id)
        self._leaf_uids = [n.uid for n in tree.nodes
                           if not getattr(n, "children", None) and getattr(n, "child", None) is None]
        self._journal: list[StatusChange] = []
        self._subscription = tree.subscribe_status_changes(self._record)
        self.closed = False

    def _record(self, node, previous: NodeStatus, new: NodeStatus) -> None:
        self._journal.append(StatusChange(node.uid, node.name, node.registration_id,
                                          self.paths.get(node.uid, node.full_path),
                                          previous.name, new.name))

    def snapshot(self) -> list[StatusChange]:
        """Every node with its current status (previous == status): the tree's shape."""
        return [StatusChange(n.uid, n.name, n.registration_id, self.paths[n.uid], n.status.name,
                             n.status.name) for n in self.tree.nodes]

    def tick(self) -> NodeStatus:
        """Tick the root exactly once; return its status.

        tick_exactly_once, not tick_once: a node that emits wake-up on every tick (a
        RetryUntilSuccessful around a failing condition does) would make tick_once loop
        inside one call and starve the executor that delivers the messages it waits
        for. The executor's timer calls again one period later instead.
        A node exception halts the tree and raises NodeTickError.
        """
        try:
            status = self.tree.tick_exactly_once()
        except Exception as exc:
            running = ", ".join(self.running_leaves()) or "none"
            self.halt()
            raise NodeTickError(f"tick {self.tick_count + 1} raised {type(exc).__name__}: {exc} "
                                f"(running leaves: {running})") from exc
        self.tick_count += 1
        self.root_status = status
        return status

    def halt(self) -> None:
        """Halt every node (ROS leaves cancel their goals)."""
        self.tree.halt_tree()

    def take_changes(self) -> list[StatusChange]:
        """The status changes since the last call, in the order they happened."""
        changes, self._journal = self._journal, []
        return changes

    def running_leaves(self) -> list[str]:
        nodes = self.tree.nodes
        return [self.paths[uid] for uid in self._leaf_uids if nodes[uid - 1].status is NodeStatus.RUNNING]

    def feedback_text(self) -> str:
        running = self.running_leaves()
        return f"tick {self.tick_count}; running: {', '.join(running) if running else '-'}"

    def close(self) -> None:
        """Stop observing the tree (halts first if it is still running)."""
        if self.closed:
            return
        self.closed = True
        if self.root_status is NodeStatus.RUNNING:
            self.halt()
        self._subscription.unsubscribe()
