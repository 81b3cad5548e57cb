"""Status-change subscriptions (used by the ROS tree-status topic and Groot2)."""
from bt_helpers import I, R, S, build


def test_observer_sees_every_change_in_order_and_can_unsubscribe():
    tree, book = build('<Sequence><Leaf name="A"/><Leaf name="B"/></Sequence>')
    book.set(B="RS")
    changes = []
    subscription = tree.subscribe_status_changes(lambda node, old, new: changes.append((node.name, old, new)))
    tree.tick_once()
    assert changes == [("Sequence", I, R), ("A", I, S), ("B", I, R)]
    changes.clear()
    tree.tick_once()
    assert changes == [("B", R, S), ("A", S, I), ("B", S, I), ("Sequence", R, S), ("Sequence", S, I)]
    subscription.unsubscribe()
    changes.clear()
    tree.tick_once()
    assert changes == []
    assert type(tree.nodes[0]).__name__ == "SequenceNode" and "status" in tree.nodes[0].__dict__


def test_halt_changes_are_reported():
    tree, book = build('<Sequence><Leaf name="A"/></Sequence>')
    book.set(A="R")
    tree.tick_once()
    changes = []
    with tree.subscribe_status_changes(lambda node, old, new: changes.append((node.name, old, new))):
        tree.halt_tree()
    assert ("A", R, I) in changes and ("Sequence", R, I) in changes


def test_two_trees_observed_independently():
    first, _ = build('<AlwaysSuccess/>')
    second, _ = build('<AlwaysSuccess/>')
    seen = []
    first.subscribe_status_changes(lambda node, old, new: seen.append("first"))
    second.subscribe_status_changes(lambda node, old, new: seen.append("second"))
    first.tick_once()
    assert seen == ["first", "first"]
