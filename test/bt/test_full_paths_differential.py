"""Full paths, the text substitution patterns match, against behaviortreepy (BT.CPP 4.8.2).

differential: every leaf records `full_path` when it is ticked, in both engines, on
trees with named and unnamed nodes, named and unnamed SubTrees, nested SubTrees and
repeated IDs. behaviortreepy exposes `TreeNode.full_path` (but no substitution API), so
this is the part of matching that can run against BT.CPP itself: a pattern such as
`"pick/*"` or `"Sequence::?"` sees the same paths here as there. (Path rules are the
same in 4.8.2 and 4.10: `xml_parsing.cpp` appends `::UID` when the name is the ID.)
"""
from __future__ import annotations

import random

import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus

behaviortreepy = pytest.importorskip("behaviortreepy")

TREES = [
    """<root BTCPP_format="4" main_tree_to_execute="Main">
      <BehaviorTree ID="Main"><Sequence><Leaf/><Leaf name="named"/><SubTree ID="Pick"/>
        <SubTree ID="Pick" name="pick"/><Fallback name="fb"><Inverter><Leaf/></Inverter><Leaf name="Leaf"/></Fallback>
      </Sequence></BehaviorTree>
      <BehaviorTree ID="Pick"><Sequence><Leaf name="approach"/><SubTree ID="Grasp"/><Leaf/></Sequence></BehaviorTree>
      <BehaviorTree ID="Grasp"><Sequence name="g"><Leaf/><Leaf name="close gripper"/></Sequence></BehaviorTree>
    </root>""",
]


def random_tree(rng: random.Random) -> str:
    def node(depth: int) -> str:
        if depth > 3 or rng.random() < 0.45:
            name = rng.choice([None, None, "a", "Leaf", "x y"])
            return "<Leaf" + (f' name="{name}"' if name else "") + "/>"
        if rng.random() < 0.25:
            name = rng.choice([None, f"s{rng.randint(0, 999)}"])
            return '<SubTree ID="Sub"' + (f' name="{name}"' if name else "") + "/>"
        tag = rng.choice(["Sequence", "Inverter", "ForceSuccess"])
        kids = rng.randint(1, 3) if tag == "Sequence" else 1
        name = rng.choice([None, "seq", tag])
        return (f"<{tag}" + (f' name="{name}"' if name else "") + ">" + "".join(node(depth + 1) for _ in range(kids))
                + f"</{tag}>")
    return (f'<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main"><Sequence>{node(1)}'
            f'{node(1)}</Sequence></BehaviorTree><BehaviorTree ID="Sub"><Sequence><Leaf/><Leaf name="in"/>'
            f'</Sequence></BehaviorTree></root>')


def paths_in(engine: str, xml: str) -> list[str]:
    seen: list[str] = []
    if engine == "ours":
        factory = BehaviorTreeFactory()
        factory.register_simple_action("Leaf", lambda node: seen.append(node.full_path) or NodeStatus.SUCCESS)
        tree = factory.create_tree_from_text(xml)
    else:
        factory = behaviortreepy.BehaviorTreeFactory()
        factory.register_simple_action("Leaf", lambda node: seen.append(node.full_path())
                                       or behaviortreepy.NodeStatus.SUCCESS)
        tree = factory.create_tree_from_text(xml)
    tree.tick_while_running()
    return seen


@pytest.mark.parametrize("xml", TREES + [random_tree(random.Random(seed)) for seed in range(40)])
def test_leaf_paths_equal_btcpp(xml):
    """differential: the paths each leaf sees, in tick order."""
    assert paths_in("ours", xml) == paths_in("btcpp", xml)


def test_the_hand_written_tree_gives_btcpp_paths():
    """differential, spelled out (BT.CPP's list): an unnamed node gets ::UID, and so does
    one named like its ID; SubTree paths prefix their nodes."""
    expected = ["Leaf::2", "named", "Pick::4/approach", "Pick::4/Grasp::7/Leaf::9", "Pick::4/Grasp::7/close gripper",
                "Pick::4/Leaf::11", "pick/approach", "pick/Grasp::15/Leaf::17", "pick/Grasp::15/close gripper",
                "pick/Leaf::19", "Leaf::22", "Leaf::23"]
    assert paths_in("btcpp", TREES[0]) == expected
    assert paths_in("ours", TREES[0]) == expected
