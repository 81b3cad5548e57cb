"""A small tree with the kinds of leaves a real run has, recorded tick by tick (no ROS).

- `Detect`  a sync action writing a list of frozen dataclasses (with a tuple and a nan)
            and a count through output ports;
- `Move`    an asynchronous action RUNNING for a few ticks, failing its first time;
- `Watch`   a condition re-checked every tick by a ReactiveSequence, writing the same
            string every tick (the "same" compression);
- scripts   Script / ScriptCondition leaves and a `_post` script (a write made by the
            tree, not by a leaf); a SubTree with a private `_try` entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from robot_tasks.bt import (
    BehaviorTreeFactory,
    ConditionNode,
    InputPort,
    NodeStatus,
    OutputPort,
    StatefulActionNode,
    SyncActionNode,
)
from robot_tasks.bt.recording import FileRecording

TREE = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="main">
      <Detect name="detect" objects="{objects}" count="{count}"/>
      <Script name="init" code="attempts := 0"/>
      <ReactiveSequence name="guarded">
        <Watch name="watch" seen="{seen}"/>
        <RetryUntilSuccessful name="retry" num_attempts="5">
          <Sequence name="try">
            <Script name="count_attempt" code="attempts += 1"/>
            <Move name="move" target="{objects}" ticks="3"/>
          </Sequence>
        </RetryUntilSuccessful>
      </ReactiveSequence>
      <SubTree ID="Place" name="place_it" _autoremap="true"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Place">
    <Sequence name="place">
      <Script name="remember" code="_try := attempts"/>
      <Move name="lower" target="{objects}" ticks="2" _post="placed := true"/>
      <ScriptCondition name="placed_ok" code="placed &amp;&amp; attempts == 2"/>
    </Sequence>
  </BehaviorTree>
</root>
"""


@dataclass(frozen=True)
class Seen:
    label: str
    position: tuple


class Detect(SyncActionNode):
    @staticmethod
    def provided_ports():
        return [OutputPort("objects"), OutputPort("count", int)]

    def tick(self):
        objects = [Seen("red", (0.1, 0.2, float("nan"))), Seen("blue", (0.3, 0.4, 0.5))]
        self.set_output("objects", objects)
        self.set_output("count", len(objects))
        return NodeStatus.SUCCESS


class Move(StatefulActionNode):
    """RUNNING for `ticks` ticks, then FAILURE the first time any Move finishes, SUCCESS after."""

    finished = 0

    @staticmethod
    def provided_ports():
        return [InputPort("target"), InputPort("ticks", int, default=3)]

    def on_start(self):
        self.left = self.get_input("ticks")
        return NodeStatus.RUNNING

    def on_running(self):
        self.left -= 1
        if self.left > 0:
            return NodeStatus.RUNNING
        Move.finished += 1
        return NodeStatus.SUCCESS if Move.finished > 1 else NodeStatus.FAILURE

    def on_halted(self):
        pass


class Watch(ConditionNode):
    @staticmethod
    def provided_ports():
        return [OutputPort("seen")]

    def tick(self):
        self.set_output("seen", "all clear")
        return NodeStatus.SUCCESS


def make_factory() -> BehaviorTreeFactory:
    factory = BehaviorTreeFactory()
    for cls in (Detect, Move, Watch):
        factory.register_node_type(cls)
    return factory


def write_tree(folder: Path, text: str = TREE) -> Path:
    path = Path(folder) / "tree.xml"
    path.write_text(text)
    return path


def record_run(folder: Path, text: str = TREE, factory=None, max_ticks: int = 100) -> tuple[Path, NodeStatus]:
    """Run the tree at `folder/tree.xml` to its end, recorded; -> (recording path, status)."""
    Move.finished = 0
    tree_file = write_tree(folder, text)
    tree = (factory or make_factory()).create_tree_from_file(tree_file)
    tree.root_blackboard.set("operator", "test")   # what the executor's payload does
    recording = FileRecording(tree, Path(folder) / "run.replay.jsonl", tree_file=tree_file, target="Main",
                              payload={"operator": "test"})
    status = NodeStatus.RUNNING
    tick = 0
    while status is NodeStatus.RUNNING and tick < max_ticks:
        tick += 1
        recording.begin_tick(tick, tick * 0.02)
        status = tree.tick_exactly_once()
    recording.close()
    return recording.path, status
