"""py_trees behaviours as leaves, checked against py_trees 2.6 itself.

The same recording Behaviour runs in a py_trees tree and as a leaf of ours; the
ordered calls (setup, initialise, update, terminate with its status) and the
statuses must be equal: alone, interrupted by a higher-priority sibling (py_trees
Selector without memory = our ReactiveFallback), and stopped from above.
"""
import py_trees
import pytest
from py_trees.common import Status

from robot_tasks.bt import BehaviorTreeFactory, InputPort, LogicError
from robot_tasks.bt.py_trees_leaf import register_py_trees_behaviour

R, S, F = Status.RUNNING, Status.SUCCESS, Status.FAILURE


class Scripted(py_trees.behaviour.Behaviour):
    """Returns a planned status per update and logs every life-cycle call."""

    def __init__(self, name, plan, log):
        super().__init__(name)
        self.plan, self.log, self.updates = plan, log, 0

    def setup(self, **kwargs):
        self.log.append((self.name, "setup", tuple(sorted(kwargs))))

    def initialise(self):
        self.log.append((self.name, "initialise"))

    def update(self):
        status = self.plan[min(self.updates, len(self.plan) - 1)]
        self.updates += 1
        self.log.append((self.name, "update", status.name))
        return status

    def terminate(self, new_status):
        self.log.append((self.name, "terminate", new_status.name))


def our_tree(body, plans, log, setup_kwargs=None, ports=None):
    factory = BehaviorTreeFactory()
    register_py_trees_behaviour(factory, "Work", lambda name: Scripted(name, plans[name], log),
                                ports=ports, setup_kwargs=setup_kwargs)
    return factory.create_tree_from_text(f'<root BTCPP_format="4"><BehaviorTree ID="M">{body}</BehaviorTree></root>')


def test_alone_matches_py_trees():
    plan = [R, R, S, F, R]
    theirs_log, ours_log = [], []
    behaviour = Scripted("A", plan, theirs_log)
    behaviour.setup()
    theirs = []
    for _ in range(5):
        behaviour.tick_once()
        theirs.append(behaviour.status.name)
    tree = our_tree('<Work name="A"/>', {"A": plan}, ours_log)
    ours = [tree.tick_once().name for _ in range(5)]
    assert ours == theirs == ["RUNNING", "RUNNING", "SUCCESS", "FAILURE", "RUNNING"]
    assert ours_log == theirs_log
    assert theirs_log[:4] == [("A", "setup", ()), ("A", "initialise"), ("A", "update", "RUNNING"),
                              ("A", "update", "RUNNING")]


def test_interrupted_by_higher_priority_matches_py_trees_selector():
    plans = {"C": [F, F, S], "A": [R]}
    theirs_log, ours_log = [], []
    root = py_trees.composites.Selector("sel", memory=False, children=[
        Scripted("C", plans["C"], theirs_log), Scripted("A", plans["A"], theirs_log)])
    py_trees.trees.BehaviourTree(root).setup()
    theirs = []
    for _ in range(3):
        root.tick_once()
        theirs.append(root.status.name)
    tree = our_tree('<ReactiveFallback><Work name="C"/><Work name="A"/></ReactiveFallback>', plans, ours_log)
    ours = [tree.tick_once().name for _ in range(3)]
    assert ours == theirs == ["RUNNING", "RUNNING", "SUCCESS"]
    assert ours_log == theirs_log
    assert ("A", "terminate", "INVALID") in ours_log


def test_stopped_from_above_matches_py_trees():
    plans = {"A": [S], "B": [R]}
    theirs_log, ours_log = [], []
    root = py_trees.composites.Sequence("seq", memory=True, children=[
        Scripted("A", plans["A"], theirs_log), Scripted("B", plans["B"], theirs_log)])
    py_trees.trees.BehaviourTree(root).setup()
    root.tick_once()
    root.stop(Status.INVALID)
    tree = our_tree('<SequenceWithMemory><Work name="A"/><Work name="B"/></SequenceWithMemory>', plans, ours_log)
    tree.tick_once()  # A succeeds, SequenceWithMemory yields with wake-up, tick_once goes on to B
    tree.halt_tree()
    theirs_calls = [entry for entry in theirs_log if entry[1] != "setup"]
    ours_calls = [entry for entry in ours_log if entry[1] != "setup"]
    # The one difference: py_trees' stop() also sends terminate(INVALID) to a child that
    # already terminated (A, with SUCCESS); a BT parent only resets a finished child to
    # IDLE, so our leaf is halted, and terminated, only while it is RUNNING.
    assert ("A", "terminate", "SUCCESS") in theirs_calls
    theirs_calls.remove(("A", "terminate", "INVALID"))
    assert ours_calls == theirs_calls
    assert ours_calls[-1] == ("B", "terminate", "INVALID")


def test_setup_once_with_kwargs_and_ports():
    log = []
    seen = []

    class Reader(Scripted):
        def update(self):
            seen.append(self.bt_node.get_input("speed"))
            return super().update()

    factory = BehaviorTreeFactory()
    register_py_trees_behaviour(factory, "Read", lambda name: Reader(name, [S], log),
                                ports=[InputPort("speed", float)], setup_kwargs={"timeout": 2})
    tree = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>'
                                         '<Read name="a" speed="0.5"/><Read name="b" speed="2"/></Sequence>'
                                         '</BehaviorTree></root>')
    assert [entry for entry in log if entry[1] == "setup"] == [("a", "setup", ("timeout",)),
                                                               ("b", "setup", ("timeout",))]
    tree.tick_once()
    tree.tick_once()
    assert seen == [0.5, 2.0, 0.5, 2.0]
    assert sum(1 for entry in log if entry[1] == "setup") == 2


def test_invalid_update_is_an_error_and_instances_are_refused():
    log = []
    tree = our_tree('<Work name="A"/>', {"A": [Status.INVALID]}, log)
    with pytest.raises(LogicError, match="must return SUCCESS, FAILURE or RUNNING"):
        tree.tick_once()
    with pytest.raises(TypeError, match="not an instance"):
        register_py_trees_behaviour(BehaviorTreeFactory(), "X", py_trees.behaviours.Success(name="x"))


def test_py_trees_builtin_behaviour_class():
    factory = BehaviorTreeFactory()
    register_py_trees_behaviour(factory, "Ok", py_trees.behaviours.Success)
    tree = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M"><Ok name="fine"/>'
                                         '</BehaviorTree></root>')
    assert tree.tick_once().name == "SUCCESS" and tree.nodes[0].behaviour.name == "fine"
