"""Test a tree file with its leaves mocked, in a few lines of pytest (no ROS needed).

```python
from robot_tasks.bt import NodeStatus
from robot_tasks.testing.tree_mocks import run_tree

def test_a_bin_upside_down_goes_through_the_flip_station():
    run = run_tree("trees/ur10_palletizing.xml", "test/trees/mocks/ur10_palletizing.json",
                   blackboard={"flip_first": True})
    assert run.status is NodeStatus.SUCCESS
    assert "flipping" in run.visited
```

`run_tree` builds a factory, adds your mocks as BT.CPP substitution rules, creates the
tree (node types nobody registered get stand-ins, and a stand-in left unmocked is an
error listing them), ticks it to the end (bounded by `max_ticks` and `max_seconds`)
and returns a `MockRun`: `status`, `visited`, `statuses(name)`, `count(name, status)`,
`halted(name)`, `transitions`, `blackboard`.

`mocks` is one of these, or a list of them applied in order (a later rule for the
same pattern replaces an earlier one):

- a path to a rules file in BT.CPP's JSON format (`TestNodeConfigs`, `SubstitutionRules`);
- a dict in that format (it has a `"SubstitutionRules"` key);
- a flat dict `{pattern: mock}`, the pattern a node name, a type ID or a path with
  `*`/`?`, and the mock a `NodeStatus` or its name (`"FAILURE"`), a dict of
  TestNodeConfig fields (`{"return_status": "SUCCESS", "post_script": "x := 1"}`), a
  `TestNodeConfig`, or any other string: the registration ID to build instead.

`blackboard` fills the root blackboard before the tree is created: a dict of JSON
values (as BT.CPP's ImportBlackboardFromJSON reads them), a path to a JSON file, or a
Blackboard. `plugins` are modules with `register_nodes(factory)` whose real node
types you want to keep; a leaf you also mock is replaced anyway.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from robot_tasks.bt import BehaviorTreeFactory, Blackboard, NodeStatus
from robot_tasks.bt.blackboard_json import import_blackboard_from_json
from robot_tasks.bt.errors import BehaviorTreeError, SubstitutionError
from robot_tasks.bt.testing import TestNodeConfig
from robot_tasks.bt.testing.mock_run import MockRun, create_tree_with_mocks
from robot_tasks.bt.testing.rules_json import parse_substitution_json

__all__ = ["MockRun", "add_mocks", "make_blackboard", "run_tree"]


def run_tree(path: str | Path, mocks: Any, *, blackboard: Any = None, tree_id: str | None = None,
             plugins: Iterable[str] = (), factory: BehaviorTreeFactory | None = None, max_ticks: int = 2000,
             max_seconds: float = 60.0, tick_period_s: float = 0.1) -> MockRun:
    """Create the tree of `path` with `mocks` applied, tick it to the end, return the run.

    Between ticks the run waits up to `tick_period_s`; a mock's timer (async_delay)
    ends the wait as soon as it fires, so a long period costs nothing and keeps the
    tick sequence the same on a loaded machine."""
    if factory is None:
        factory = BehaviorTreeFactory()
    if plugins:
        from robot_tasks.runtime.plugins import load_plugins

        load_plugins(list(plugins), factory)
    add_mocks(factory, mocks)
    tree = create_tree_with_mocks(factory, path, tree_id, make_blackboard(blackboard))
    run = MockRun(tree)
    run.run(max_ticks=max_ticks, max_seconds=max_seconds, tick_period_s=tick_period_s)
    return run


def add_mocks(factory: BehaviorTreeFactory, mocks: Any) -> None:
    """Add `mocks` (any form the module docstring lists) as substitution rules."""
    if isinstance(mocks, (list, tuple)):
        for item in mocks:
            add_mocks(factory, item)
        return
    if isinstance(mocks, (str, Path)):
        text = Path(mocks).read_text()
        try:
            factory.load_substitution_rule_from_json(text)
        except SubstitutionError as exc:
            raise SubstitutionError(f"{mocks}: {exc}") from None
        return
    if not isinstance(mocks, dict):
        raise SubstitutionError(f"mocks must be a rules file, a dict or a list of them, not {type(mocks).__name__}")
    if "SubstitutionRules" in mocks:
        factory.load_substitution_rule_from_json(json.dumps(mocks))
        return
    for pattern, mock in mocks.items():
        factory.add_substitution_rule(pattern, _rule(pattern, mock))


def _rule(pattern: str, mock: Any):
    if isinstance(mock, NodeStatus):
        return TestNodeConfig(return_status=mock)
    if isinstance(mock, str) and mock in NodeStatus.__members__:
        return TestNodeConfig(return_status=NodeStatus[mock])
    if isinstance(mock, dict):
        document = {"TestNodeConfigs": {pattern: mock}, "SubstitutionRules": {pattern: pattern}}
        return parse_substitution_json(json.dumps(document))[0][1]
    return mock  # a TestNodeConfig or a registration ID; the factory checks it


def make_blackboard(initial: Any) -> Blackboard | None:
    """A root blackboard filled from a dict, a JSON file path, or a Blackboard as it is."""
    if initial is None or isinstance(initial, Blackboard):
        return initial
    if isinstance(initial, (str, Path)):
        initial = json.loads(Path(initial).read_text())
    board = Blackboard()
    skipped = import_blackboard_from_json(initial, board)
    if skipped:
        raise BehaviorTreeError("blackboard entries that cannot be imported: "
                                + "; ".join(f"{key}: {why}" for key, why in skipped.items()))
    return board
