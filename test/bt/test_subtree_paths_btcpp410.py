"""SubTree paths and literals: BT.CPP 4.10's `tests/gtest_subtree.cpp`, transcribed.

4.10 names a SubTree's path after its `name`, or, without one, `ID::UID` (the UID of the
SubTree node), so sibling SubTrees without names get unique paths and load; two
siblings with the same `name` are refused ("Duplicate SubTree path detected").
Transcribed: DuplicateSubTreeName_Groot2Issue56, DuplicateSubTreeName_ErrorMessage,
UniqueSubTreeNames_WorksCorrectly, NoNameAttribute_AutoGeneratesUniquePaths,
NestedDuplicateNames_ShouldFail, LiteralNumericPortsPreserveType (same names below).
The nested layout at the end was recorded with BT.CPP 4.10.0 built from source
(every node's fullPath() and every subtree's instance_name).
"""
import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus, XmlError


def worker_tree(*subtrees, control="ParallelAll"):
    children = "".join(subtrees)
    return (f'<root BTCPP_format="4" main_tree_to_execute="MainTree"><BehaviorTree ID="MainTree">'
            f'<{control}>{children}</{control}></BehaviorTree>'
            f'<BehaviorTree ID="Worker"><AlwaysSuccess name="do_work"/></BehaviorTree></root>')


def all_paths_unique(tree):
    paths = [node.full_path for node in tree.nodes]
    return len(paths) == len(set(paths))


def test_DuplicateSubTreeName_Groot2Issue56():
    with pytest.raises(XmlError):
        BehaviorTreeFactory().create_tree_from_text(
            worker_tree('<SubTree ID="Worker" name="my_worker"/>', '<SubTree ID="Worker" name="my_worker"/>'))


def test_DuplicateSubTreeName_ErrorMessage():
    xml = ('<root BTCPP_format="4" main_tree_to_execute="MainTree"><BehaviorTree ID="MainTree"><Sequence>'
           '<SubTree ID="Task" name="my_task"/><SubTree ID="Task" name="my_task"/></Sequence></BehaviorTree>'
           '<BehaviorTree ID="Task"><AlwaysSuccess/></BehaviorTree></root>')
    with pytest.raises(XmlError) as error:
        BehaviorTreeFactory().create_tree_from_text(xml)
    assert "Duplicate SubTree path" in str(error.value) and "my_task" in str(error.value)


def test_UniqueSubTreeNames_WorksCorrectly():
    tree = BehaviorTreeFactory().create_tree_from_text(
        worker_tree('<SubTree ID="Worker" name="worker_1"/>', '<SubTree ID="Worker" name="worker_2"/>'))
    assert all_paths_unique(tree)
    assert len(tree.subtrees) == 3
    assert tree.tick_while_running() is NodeStatus.SUCCESS


def test_NoNameAttribute_AutoGeneratesUniquePaths():
    tree = BehaviorTreeFactory().create_tree_from_text(worker_tree('<SubTree ID="Worker"/>', '<SubTree ID="Worker"/>'))
    assert all_paths_unique(tree)
    assert len(tree.subtrees) == 3
    assert [subtree.instance_name for subtree in tree.subtrees] == ["", "Worker::2", "Worker::4"]
    assert tree.tick_while_running() is NodeStatus.SUCCESS


def test_NestedDuplicateNames_ShouldFail():
    xml = ('<root BTCPP_format="4" main_tree_to_execute="MainTree"><BehaviorTree ID="MainTree"><Sequence>'
           '<SubTree ID="Level1" name="task"/><SubTree ID="Level1" name="task"/></Sequence></BehaviorTree>'
           '<BehaviorTree ID="Level1"><AlwaysSuccess name="work"/></BehaviorTree></root>')
    with pytest.raises(XmlError, match="Duplicate SubTree path"):
        BehaviorTreeFactory().create_tree_from_text(xml)


def test_LiteralNumericPortsPreserveType():
    xml = ('<root BTCPP_format="4" main_tree_to_execute="MainTree"><BehaviorTree ID="MainTree"><Sequence>'
           '<SubTree ID="DoMath" int_val="42" dbl_val="3.14" str_val="hello" remapped_val="{from_parent}"/>'
           '</Sequence></BehaviorTree><BehaviorTree ID="DoMath"><Sequence>'
           '<ScriptCondition code=" int_val + 1 == 43 "/><ScriptCondition code=" dbl_val &gt; 3.0 "/>'
           '<ScriptCondition code=" remapped_val + 1 == 101 "/></Sequence></BehaviorTree></root>')
    tree = BehaviorTreeFactory().create_tree_from_text(xml)
    tree.root_blackboard.set("from_parent", 100)
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    inner = tree.subtrees[1].blackboard
    assert inner.get("int_val") == 42 and inner.get_entry("int_val").declared == "int"
    assert inner.get("dbl_val") == 3.14 and inner.get_entry("dbl_val").declared == "double"
    assert inner.get("str_val") == "hello" and inner.get_entry("str_val").declared is None


NESTED = ('<root BTCPP_format="4" main_tree_to_execute="MainTree"><BehaviorTree ID="MainTree"><ParallelAll>'
          '<SubTree ID="Worker"/><SubTree ID="Worker"/><Sequence><SubTree ID="Worker"/></Sequence>'
          '</ParallelAll></BehaviorTree><BehaviorTree ID="Worker"><Sequence><AlwaysSuccess name="do_work"/>'
          '<SubTree ID="Inner"/><SubTree ID="Inner"/></Sequence></BehaviorTree>'
          '<BehaviorTree ID="Inner"><AlwaysSuccess/></BehaviorTree></root>')
NESTED_BY_BTCPP_410 = {
    "": ["ParallelAll::1", "Worker::2", "Worker::9", "Sequence::16", "Worker::17"],
    "Worker::2": ["Worker::2/Sequence::3", "Worker::2/do_work", "Worker::2/Inner::5", "Worker::2/Inner::7"],
    "Worker::2/Inner::5": ["Worker::2/Inner::5/AlwaysSuccess::6"],
    "Worker::2/Inner::7": ["Worker::2/Inner::7/AlwaysSuccess::8"],
    "Worker::9": ["Worker::9/Sequence::10", "Worker::9/do_work", "Worker::9/Inner::12", "Worker::9/Inner::14"],
    "Worker::9/Inner::12": ["Worker::9/Inner::12/AlwaysSuccess::13"],
    "Worker::9/Inner::14": ["Worker::9/Inner::14/AlwaysSuccess::15"],
    "Worker::17": ["Worker::17/Sequence::18", "Worker::17/do_work", "Worker::17/Inner::20",
                   "Worker::17/Inner::22"],
    "Worker::17/Inner::20": ["Worker::17/Inner::20/AlwaysSuccess::21"],
    "Worker::17/Inner::22": ["Worker::17/Inner::22/AlwaysSuccess::23"],
}


def test_nested_unnamed_siblings_get_btcpp_410s_paths():
    tree = BehaviorTreeFactory().create_tree_from_text(NESTED)
    got = {subtree.instance_name: [node.full_path for node in subtree.nodes] for subtree in tree.subtrees}
    assert got == NESTED_BY_BTCPP_410
    assert list(got) == list(NESTED_BY_BTCPP_410)  # the same creation order
    assert tree.tick_while_running() is NodeStatus.SUCCESS
