"""FULLTREE -> the tree the page draws: port directions from the TreeNodesModel.

A node's XML attribute gives only a port's value; the `<TreeNodesModel>` that FULLTREE
carries says whether the port is read (input), written (output) or both (inout). The
page marks each port with that direction (← in, → out, ↔ inout)."""
from robot_tasks.monitor.tree_model import parse_fulltree

FULLTREE = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main" _fullpath="">
    <Sequence name="main" _uid="1">
      <Detect name="look" _uid="2" labels="red" objects="{seen}"/>
      <SubTree ID="Work" _uid="3" _fullpath="work" target="{seen}"/>
      <Mystery name="unknown" _uid="5" color="blue"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Work" _fullpath="work">
    <SetBlackboard name="copy" _uid="4" output_key="copy" value="{target}"/>
  </BehaviorTree>
  <TreeNodesModel>
    <Action ID="Detect">
      <input_port name="labels" type="std::string">what to look for</input_port>
      <output_port name="objects"/>
    </Action>
    <Action ID="SetBlackboard">
      <inout_port name="output_key"/>
      <input_port name="value"/>
    </Action>
    <SubTree ID="Work"><input_port name="target"/></SubTree>
  </TreeNodesModel>
</root>"""


def dirs_by_uid(tree: dict) -> dict[int, dict]:
    out, stack = {}, [tree["root"]]
    while stack:
        item = stack.pop()
        out[item["uid"]] = item["port_dirs"]
        stack.extend(item["children"])
    return out


def test_port_directions_come_from_the_node_models():
    dirs = dirs_by_uid(parse_fulltree(FULLTREE))
    assert dirs[2] == {"labels": "in", "objects": "out"}
    assert dirs[4] == {"output_key": "inout", "value": "in"}
    assert dirs[3] == {}        # a SubTree's attributes are remappings, not the node's own ports
    assert dirs[5] == {}        # no model for it: values shown, no direction
    assert dirs[1] == {}


def test_a_fulltree_without_models_has_no_directions():
    text = FULLTREE[:FULLTREE.index("<TreeNodesModel>")] + "</root>"
    assert all(d == {} for d in dirs_by_uid(parse_fulltree(text)).values())
