"""Mocking nodes to test a tree: BT.CPP 4.10's substitution rules and TestNode.

To test the *logic* of a tree -- which branch runs when a grasp fails, whether a
recovery is reached -- you do not want the real leaves (robots, cameras, ROS). BT.CPP
lets the factory **substitute** nodes while it creates a tree: a rule maps a node
(by name, by registration ID, or by a wildcard on its full path) to either another
registered node type or a configurable `TestNode`:

```python
from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.bt.testing import TestNodeConfig

factory = BehaviorTreeFactory()
factory.add_substitution_rule("pick/*", TestNodeConfig(return_status=NodeStatus.SUCCESS,
                                                       async_delay=100))
factory.add_substitution_rule("CheckGrasp", TestNodeConfig(
    return_status_script="attempts > 1 ? SUCCESS : FAILURE", failure_script="attempts += 1"))
factory.add_substitution_rule("SaySomething", "AlwaysSuccess")   # by registration ID
factory.load_substitution_rule_from_json(open("rules.json").read())  # BT.CPP's JSON format
tree = factory.create_tree_from_file("trees/my_tree.xml")   # rules apply here
```

Rules apply when a tree is *created*; changing them later does not touch existing
trees. `factory.substitution_rules` shows them; `clear_substitution_rules()` drops them.

| module            | job                                                               |
|-------------------|-------------------------------------------------------------------|
| `test_node.py`    | `TestNodeConfig` and `TestNode`: what a mock returns, when, and which scripts it runs |
| `substitution.py` | the rule table, which rule matches a node, building the replacement |
| `wildcards.py`    | `*` / `?` patterns on full paths                                   |
| `rule_order.py`   | the order BT.CPP tries rules in (libstdc++'s unordered_map)        |
| `rules_json.py`   | BT.CPP's JSON rules format (`TestNodeConfigs`, `SubstitutionRules`)|

For whole-tree tests in pytest, `robot_tasks.testing.tree_mocks` wraps all this in
one call; on the command line, `robot-tasks tree test FILE --mocks rules.json`.
"""
from .rules_json import parse_substitution_json
from .substitution import SubstitutionRules
from .test_node import TestNode, TestNodeConfig
from .wildcards import wildcards_match

__all__ = ["SubstitutionRules", "TestNode", "TestNodeConfig", "parse_substitution_json", "wildcards_match"]
