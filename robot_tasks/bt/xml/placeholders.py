"""Stand-in nodes for IDs that a file declares in its TreeNodesModel but that are not
registered (used by `robot-tasks tree validate`, so a tree can be checked without the
code of its custom leaves, and by `robot_tasks.bt.testing.stand_ins`, so a tree can be
created with those leaves mocked)."""
from __future__ import annotations

from ..action_nodes import ActionNodeBase, ConditionNode
from ..control_node import ControlNode
from ..decorator_node import DecoratorNode
from ..errors import RuntimeTreeError
from ..manifest import NodeManifest
from ..node import NodeType


def _refuse(self):
    raise RuntimeTreeError(f"node [{self.name}] ({self.registration_id}) is a placeholder created from a "
                           f"TreeNodesModel or the XML; register the real node type (or mock it) to tick it")


_BASES = {NodeType.ACTION: ActionNodeBase, NodeType.CONDITION: ConditionNode,
          NodeType.CONTROL: ControlNode, NodeType.DECORATOR: DecoratorNode}
_CLASSES = {kind: type(f"Placeholder{kind.value}", (base,), {"tick": _refuse})
            for kind, base in _BASES.items()}


def register_placeholder(factory, manifest: NodeManifest) -> None:
    factory.register_builder(manifest, _CLASSES[manifest.type])


def is_placeholder(node) -> bool:
    """True for a stand-in node (it refuses to tick)."""
    return isinstance(node, tuple(_CLASSES.values()))
