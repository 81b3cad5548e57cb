"""Shared helpers for the engine tests: a scripted leaf that records what happens to it.

`<Leaf name="A"/>` returns the statuses planned for "A" one per tick (the last one
repeats), and the Book records ticks, halts (of a RUNNING leaf) and the order of events.
"""
from __future__ import annotations

from collections import Counter

from robot_tasks.bt import ActionNodeBase, BehaviorTreeFactory, NodeStatus

S, F, R, K, I = (NodeStatus.SUCCESS, NodeStatus.FAILURE, NodeStatus.RUNNING, NodeStatus.SKIPPED,
                 NodeStatus.IDLE)
_LETTERS = {"S": S, "F": F, "R": R, "K": K}


class Book:
    def __init__(self):
        self.plan: dict[str, list[NodeStatus]] = {}
        self.ticks: Counter = Counter()
        self.halts: Counter = Counter()
        self.log: list[str] = []
        self._position: Counter = Counter()

    def set(self, **plans: str) -> None:
        """book.set(A="RRS", B="F"): from now on A runs twice then succeeds; B always
        fails. Tick counts are not reset."""
        for name, letters in plans.items():
            self.plan[name] = [_LETTERS[letter] for letter in letters]
            self._position[name] = 0

    def next_status(self, name: str) -> NodeStatus:
        self.ticks[name] += 1
        self._position[name] += 1
        self.log.append(f"tick {name}")
        plan = self.plan.get(name, [S])
        return plan[min(self._position[name] - 1, len(plan) - 1)]


class ScriptedLeaf(ActionNodeBase):
    """Action leaf driven by a Book (see module docstring)."""

    def __init__(self, name, config, book: Book):
        super().__init__(name, config)
        self.book = book

    def tick(self):
        return self.book.next_status(self.name)

    def halt(self):
        if self.status is R:
            self.book.halts[self.name] += 1
            self.book.log.append(f"halt {self.name}")
        self.status = I


def make_factory() -> tuple[BehaviorTreeFactory, Book]:
    factory = BehaviorTreeFactory()
    book = Book()
    factory.register_node_type(ScriptedLeaf, "Leaf", book)
    return factory, book


def tree_xml(body: str, *extra_trees: str, main: str = "Main") -> str:
    """Wrap a node body in a BTCPP_format 4 document with one main BehaviorTree."""
    return (f'<root BTCPP_format="4" main_tree_to_execute="{main}">'
            f'<BehaviorTree ID="{main}">{body}</BehaviorTree>{"".join(extra_trees)}</root>')


def build(body: str, *extra_trees: str, factory=None, book=None):
    """(tree, book) for a node body, with the scripted Leaf registered."""
    if factory is None:
        factory, book = make_factory()
    return factory.create_tree_from_text(tree_xml(body, *extra_trees)), book


def statuses(tree) -> dict[str, NodeStatus]:
    return {node.name: node.status for node in tree.nodes}
