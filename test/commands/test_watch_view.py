"""The watch command's TreeView: TreeStatus messages -> plain lines and an indented tree (no DDS)."""
from robot_tasks.commands.watch import TreeView


def status(tick, root, changes):
    from robot_tasks_interfaces.msg import TreeNodeStatus, TreeStatus

    return TreeStatus(tree_id="T", tick_count=tick, root_status=root, changes=[
        TreeNodeStatus(uid=uid, name=path.rsplit("/", 1)[-1], registration_id=reg, path=path,
                       previous_status=prev, status=new) for uid, path, reg, prev, new in changes])


def test_lines_and_rendering():
    view = TreeView()
    start = status(0, "IDLE", [(1, "T/seq", "Sequence", "IDLE", "IDLE"),
                               (2, "T/seq/go", "MoveToJoints", "IDLE", "IDLE")])
    assert view.update(start) == ["T: started (2 nodes)"]
    assert not view.ended(start)
    tick = status(1, "RUNNING", [(1, "T/seq", "Sequence", "IDLE", "RUNNING"),
                                 (2, "T/seq/go", "MoveToJoints", "IDLE", "RUNNING")])
    assert view.update(tick) == ["T tick 1: T/seq IDLE -> RUNNING", "T tick 1: T/seq/go IDLE -> RUNNING"]
    assert view.render(color=False).splitlines() == [
        "T  tick 1  root RUNNING", "seq (Sequence): RUNNING", "  go (MoveToJoints): RUNNING"]
    assert "\033[33mRUNNING\033[0m" in view.render(color=True)
    end = status(5, "FAILURE", [(2, "T/seq/go", "MoveToJoints", "RUNNING", "FAILURE")])
    assert view.update(end)[-1] == "T: ended FAILURE after 5 ticks" and view.ended(end)
