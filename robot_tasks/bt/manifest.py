"""NodeManifest: what the factory knows about a registered node type."""
from __future__ import annotations

from dataclasses import dataclass, field

from .node import NodeType
from .ports import PortInfo


@dataclass
class NodeManifest:
    """Registration ID, kind, declared ports and description of a node type
    (BT.CPP `TreeNodeManifest`); this is what TreeNodesModel describes."""

    type: NodeType
    registration_id: str
    ports: dict[str, PortInfo] = field(default_factory=dict)
    description: str = ""
