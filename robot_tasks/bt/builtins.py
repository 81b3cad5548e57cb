"""The node types every factory knows, under their BT.CPP registration IDs."""
from __future__ import annotations

from .controls.fallback import AsyncFallbackNode, FallbackNode
from .controls.if_then_else import IfThenElseNode
from .controls.parallel import ParallelNode
from .controls.parallel_all import ParallelAllNode
from .controls.reactive_fallback import ReactiveFallbackNode
from .controls.reactive_sequence import ReactiveSequenceNode
from .controls.sequence import AsyncSequenceNode, SequenceNode
from .controls.sequence_with_memory import SequenceWithMemoryNode
from .controls.switch import Switch2Node, Switch3Node, Switch4Node, Switch5Node, Switch6Node
from .controls.try_catch import TryCatchNode
from .controls.while_do_else import WhileDoElseNode
from .decorators.delay import DelayNode
from .decorators.entry_updated import SkipUnlessUpdatedNode, WaitValueUpdateNode
from .decorators.force_failure import ForceFailureNode
from .decorators.force_success import ForceSuccessNode
from .decorators.inverter import InverterNode
from .decorators.keep_running_until_failure import KeepRunningUntilFailureNode
from .decorators.loop import LoopBoolNode, LoopDoubleNode, LoopIntNode, LoopStringNode
from .decorators.precondition import PreconditionNode
from .decorators.repeat import RepeatNode
from .decorators.retry import RetryNode
from .decorators.run_once import RunOnceNode
from .decorators.subtree import SubTreeNode
from .decorators.timeout import TimeoutNode
from .leaves.always import AlwaysFailureNode, AlwaysSuccessNode
from .leaves.script import ScriptNode
from .leaves.script_condition import ScriptConditionNode
from .leaves.set_blackboard import SetBlackboardNode
from .leaves.sleep import SleepNode
from .leaves.unset_blackboard import UnsetBlackboardNode
from .leaves.was_entry_updated import WasEntryUpdatedNode

BUILTIN_NODES: dict[str, type] = {
    "AlwaysSuccess": AlwaysSuccessNode,
    "AlwaysFailure": AlwaysFailureNode,
    "Script": ScriptNode,
    "ScriptCondition": ScriptConditionNode,
    "SetBlackboard": SetBlackboardNode,
    "UnsetBlackboard": UnsetBlackboardNode,
    "Sleep": SleepNode,
    "Sequence": SequenceNode,
    "AsyncSequence": AsyncSequenceNode,
    "SequenceWithMemory": SequenceWithMemoryNode,
    "ReactiveSequence": ReactiveSequenceNode,
    "Fallback": FallbackNode,
    "AsyncFallback": AsyncFallbackNode,
    "ReactiveFallback": ReactiveFallbackNode,
    "Parallel": ParallelNode,
    "ParallelAll": ParallelAllNode,
    "IfThenElse": IfThenElseNode,
    "WhileDoElse": WhileDoElseNode,
    "Switch2": Switch2Node,
    "Switch3": Switch3Node,
    "Switch4": Switch4Node,
    "Switch5": Switch5Node,
    "Switch6": Switch6Node,
    "TryCatch": TryCatchNode,
    "Inverter": InverterNode,
    "ForceSuccess": ForceSuccessNode,
    "ForceFailure": ForceFailureNode,
    "Repeat": RepeatNode,
    "RetryUntilSuccessful": RetryNode,
    "KeepRunningUntilFailure": KeepRunningUntilFailureNode,
    "RunOnce": RunOnceNode,
    "Timeout": TimeoutNode,
    "Delay": DelayNode,
    "Precondition": PreconditionNode,
    "SubTree": SubTreeNode,
    "LoopInt": LoopIntNode,
    "LoopBool": LoopBoolNode,
    "LoopDouble": LoopDoubleNode,
    "LoopString": LoopStringNode,
    "WasEntryUpdated": WasEntryUpdatedNode,
    "SkipUnlessUpdated": SkipUnlessUpdatedNode,
    "WaitValueUpdate": WaitValueUpdateNode,
}


def register_builtin_nodes(factory) -> None:
    for registration_id, cls in BUILTIN_NODES.items():
        factory.register_node_type(cls, registration_id)
