"""robot_tasks.bt — a behavior-tree engine with BehaviorTree.CPP 4.10 semantics, in pure Python.

Trees are written in BT.CPP v4 XML (the format Groot2 edits). Quick start:

```python
from robot_tasks.bt import BehaviorTreeFactory, NodeStatus, InputPort

factory = BehaviorTreeFactory()
factory.register_simple_action(
    "Say", lambda node: print(node.get_input("message")) or NodeStatus.SUCCESS,
    ports=[InputPort("message")])
tree = factory.create_tree_from_text('''
<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence><Say message="hello"/><Say message="world"/></Sequence>
  </BehaviorTree>
</root>''')
tree.tick_while_running()
```
To test a tree's logic with its leaves mocked (BT.CPP's substitution rules and
TestNode), see `robot_tasks.bt.testing`. No ROS import anywhere in this package.
"""
from .action_nodes import (
                           ActionNodeBase,
                           ConditionNode,
                           SimpleActionNode,
                           SimpleConditionNode,
                           StatefulActionNode,
                           SyncActionNode,
)
from .blackboard import Blackboard
from .control_node import ControlNode
from .decorator_node import DecoratorNode
from .errors import BehaviorTreeError, LogicError, PortError, RuntimeTreeError, ScriptError, SubstitutionError, XmlError
from .factory import BehaviorTreeFactory
from .manifest import NodeManifest
from .node import NodeConfig, NodeType, TreeNode
from .ports import BidirectionalPort, InputPort, OutputPort, PortDirection, PortInfo
from .status import NodeStatus
from .tree import Subtree, Tree
from .xml.writer import write_tree_nodes_model_xml, write_tree_to_xml

__all__ = [
    "ActionNodeBase", "BehaviorTreeError", "BehaviorTreeFactory", "BidirectionalPort", "Blackboard",
    "ConditionNode", "ControlNode", "DecoratorNode", "InputPort", "LogicError", "NodeConfig",
    "NodeManifest", "NodeStatus", "NodeType", "OutputPort", "PortDirection", "PortError", "PortInfo",
    "RuntimeTreeError", "ScriptError", "SimpleActionNode", "SimpleConditionNode", "StatefulActionNode",
    "SubstitutionError", "Subtree", "SyncActionNode", "Tree", "TreeNode", "XmlError", "write_tree_nodes_model_xml",
    "write_tree_to_xml",
]
