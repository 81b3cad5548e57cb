"""write_tree_nodes_model_xml / write_tree_to_xml, and the round trip through the parser."""
from bt_helpers import S, make_factory, tree_xml

from robot_tasks.bt import (
    BehaviorTreeFactory,
    InputPort,
    NodeStatus,
    OutputPort,
    write_tree_nodes_model_xml,
    write_tree_to_xml,
)
from robot_tasks.bt.xml.document import parse_xml

BODY = ('<Sequence name="main_seq">'
        '<Script code="x := 1" _skipIf="false"/>'
        '<Fallback><Leaf name="A" _onSuccess="done := true"/><Inverter><Leaf name="B"/></Inverter></Fallback>'
        '<Parallel success_count="1"><Leaf name="C"/><AlwaysSuccess/></Parallel>'
        '<SubTree ID="Sub" value="{x}" _autoremap="true"/>'
        '</Sequence>')
SUB = '<BehaviorTree ID="Sub"><Repeat num_cycles="2"><Leaf name="D"/></Repeat></BehaviorTree>'


def shape(tree):
    return [(node.registration_id, node.name, dict(node.config.input_ports), len(getattr(node, "children", [])),
             getattr(node, "subtree_id", None)) for node in tree.nodes]


def test_tree_round_trip():
    factory, book = make_factory()
    tree = factory.create_tree_from_text(tree_xml(BODY, SUB))
    text = write_tree_to_xml(tree)
    again = factory.create_tree_from_text(text)
    assert [(a[0], a[1], {k: str(v) for k, v in a[2].items()}, a[3], a[4]) for a in shape(tree)] == \
           [(a[0], a[1], {k: str(v) for k, v in a[2].items()}, a[3], a[4]) for a in shape(again)]
    assert tree.tick_once() is S and again.tick_once() is S
    assert again.root_blackboard.get("done") == 1  # BT.CPP scripts store true as 1.0
    assert again.subtrees[1].blackboard.autoremap is True


def test_tree_xml_with_metadata_for_groot():
    factory, _ = make_factory()
    tree = factory.create_tree_from_text(tree_xml(BODY, SUB))
    root = parse_xml(write_tree_to_xml(tree, add_metadata=True, add_builtin_models=True))
    trees = [element for element in root.children if element.tag == "BehaviorTree"]
    assert [t.get("_fullpath") for t in trees] == ["", "Sub::10"]
    uids = []

    def walk(element):
        if "_uid" in element.attrib:
            uids.append(int(element.attrib["_uid"]))
        for child in element.children:
            walk(child)

    for element in trees:
        walk(element)
    assert sorted(uids) == list(range(1, len(tree.nodes) + 1))
    models = [element for element in root.children if element.tag == "TreeNodesModel"][0]
    ids = {model.get("ID") for model in models.children}
    assert {"Leaf", "Sequence", "Parallel"} <= ids


def test_nodes_model_lists_custom_nodes_with_ports():
    factory = BehaviorTreeFactory()
    factory.register_simple_action("Move", lambda node: NodeStatus.SUCCESS, ports=[
        InputPort("speed", float, default=0.5, description="m/s"), OutputPort("reached", bool)])
    root = parse_xml(write_tree_nodes_model_xml(factory))
    assert root.get("BTCPP_format") == "4"
    (models,) = root.children
    (move,) = models.children
    assert (move.tag, move.get("ID")) == ("Action", "Move")
    speed, reached = move.children
    assert (speed.tag, speed.attrib, speed.text) == ("input_port", {"name": "speed", "type": "double",
                                                                     "default": "0.5"}, "m/s")
    assert (reached.tag, reached.get("type")) == ("output_port", "bool")
    everything = parse_xml(write_tree_nodes_model_xml(factory, include_builtin=True))
    assert len(everything.children[0].children) > 30


def test_model_output_loads_as_placeholders_for_validation():
    from robot_tasks.bt.xml.parser import XmlParser

    source = BehaviorTreeFactory()
    source.register_simple_action("Move", lambda node: NodeStatus.SUCCESS, ports=[InputPort("speed", float)])
    model = write_tree_nodes_model_xml(source)
    xml = model.replace("</root>", '<BehaviorTree ID="M"><Move speed="1.5"/></BehaviorTree></root>')
    parser = XmlParser(BehaviorTreeFactory(), placeholders=True)
    parser.load_from_text(xml)
    tree = parser.instantiate_tree()
    assert tree.nodes[0].registration_id == "Move"
