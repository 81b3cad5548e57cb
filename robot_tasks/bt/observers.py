"""Status-change observation at zero cost for unobserved trees.

Nodes store their status in a plain attribute. To observe a tree, every node's class
is swapped for a generated subclass in which `status` is a property: the setter
stores the new value and, when it differs, calls each observer with
(node, previous, new). Every write anywhere (ticks, halts, resets, timer threads)
goes through it. The observer list lives on the generated class (one per tree and
node class), so node instances are not modified; removing the last observer swaps
the original classes back.
"""
from __future__ import annotations

from typing import Callable

from .node import TreeNode

StatusCallback = Callable[[TreeNode, object, object], None]


def _status_get(node):
    return node.__dict__["status"]


def _status_set(node, new_status):
    state = node.__dict__
    previous = state["status"]
    state["status"] = new_status
    if previous is not new_status:
        for callback in tuple(node._status_observers):
            callback(node, previous, new_status)


class ObservedClasses:
    """The notifying subclasses used by one tree, sharing that tree's observer list."""

    def __init__(self, observers: list[StatusCallback]):
        self.observers = observers
        self._classes: dict[type, type] = {}

    def attach(self, node: TreeNode) -> None:
        cls = type(node)
        if "_unobserved_class" in cls.__dict__:
            return
        observed = self._classes.get(cls)
        if observed is None:
            observed = type(cls.__name__, (cls,), {
                "status": property(_status_get, _status_set),
                "_unobserved_class": cls,
                "_status_observers": self.observers,
                "__module__": cls.__module__,
                "__qualname__": cls.__qualname__,
                "__doc__": cls.__doc__,
            })
            self._classes[cls] = observed
        node.__class__ = observed

    @staticmethod
    def detach(node: TreeNode) -> None:
        original = type(node).__dict__.get("_unobserved_class")
        if original is not None:
            node.__class__ = original


class Subscription:
    """Handle returned by `Tree.subscribe_status_changes`; call `unsubscribe()` to stop."""

    def __init__(self, tree, callback: StatusCallback):
        self._tree = tree
        self.callback = callback

    def unsubscribe(self) -> None:
        if self._tree is not None:
            self._tree._remove_status_observer(self.callback)
            self._tree = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.unsubscribe()
