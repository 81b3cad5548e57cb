"""Port connection cases and what BT.CPP 4.10 does with them, for test_port_connection_rules.

The expectations were recorded with BehaviorTree.CPP 4.10.0 built from source (the
program is `btcpp410/port_rules_oracle.cpp`); `+` / `OK` means 4.10 creates the tree,
`.` / `ERR` that it refuses it. The oracle registers one leaf per type, each with an
input `in`, an output `out` and an inout `io` of that type; `make_factory()` registers
the Python equivalents under the same names:

    Int int, Double double, Bool bool, String std::string, Generic AnyTypeAllowed,
    AnyT BT::Any, Point (a struct with convertFromString), VecDouble std::vector<double>,
    Animal / Cat / Dog / Sphynx  shared_ptr of Animal <- Cat <- Sphynx, Animal <- Dog

Python: int, float, bool, str, None, typing.Any, a class with `from_string`, list, and
the class hierarchy. The oracle registers the hierarchy as polymorphic casts (flag 1
below): Python's class hierarchy is always "registered" (see port_types.py).
"""
from __future__ import annotations

import typing

from robot_tasks.bt import BehaviorTreeFactory, BidirectionalPort, InputPort, NodeStatus, OutputPort


class Point:
    """gtest_port_type_rules' TestPoint: 'x;y'."""

    def __init__(self, x: float = 0.0, y: float = 0.0):
        self.x, self.y = x, y

    @classmethod
    def from_string(cls, text: str) -> "Point":
        parts = text.split(";")
        if len(parts) != 2:
            raise ValueError("a Point is 'x;y'")
        return cls(float(parts[0]), float(parts[1]))


class Animal:
    name = "Animal"


class Cat(Animal):
    name = "Cat"


class Dog(Animal):
    name = "Dog"


class Sphynx(Cat):
    name = "Sphynx"


TYPES = {"Int": int, "Double": float, "Bool": bool, "String": str, "Generic": None,
         "AnyT": typing.Any, "Point": Point, "VecDouble": list, "Animal": Animal, "Cat": Cat,
         "Dog": Dog, "Sphynx": Sphynx}
DIRECTIONS = ("in", "out", "io")


def make_factory() -> BehaviorTreeFactory:
    factory = BehaviorTreeFactory()
    for name, port_type in TYPES.items():
        factory.register_simple_action(
            name, lambda node: NodeStatus.SUCCESS,
            ports=[InputPort("in", port_type), OutputPort("out", port_type), BidirectionalPort("io", port_type)])
    return factory


def two_ports_xml(first: str, first_dir: str, second: str, second_dir: str) -> str:
    return (f'<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence>'
            f'<{first} {first_dir}="{{v}}"/><{second} {second_dir}="{{v}}"/>'
            f'</Sequence></BehaviorTree></root>')


# Rows: the type of the first port (which creates the entry); columns: the type of the
# second port, in TYPES order; one table per direction of the second port. 4.10 gave the
# same answer for every direction of the first port (an entry keeps only its type).
MATRIX = {
    "in": """
        Int       + . . . + + . . . . . .
        Double    . + . . + + . . . . . .
        Bool      . . + . + + . . . . . .
        String    + + + + + + + + + + + +
        Generic   + + + + + + + + + + + +
        AnyT      + + + + + + + + + + + +
        Point     . . . . + + + . . . . .
        VecDouble . . . . + + . + . . . .
        Animal    . . . . + + . . + + + .
        Cat       . . . . + + . . + + . +
        Dog       . . . . + + . . + . + .
        Sphynx    . . . . + + . . + + . +
    """,
    "out": """
        Int       + . . . + + . . . . . .
        Double    . + . . + + . . . . . .
        Bool      . . + . + + . . . . . .
        String    + + + + + + + + + + + +
        Generic   + + + + + + + + + + + +
        AnyT      + + + + + + + + + + + +
        Point     . . . . + + + . . . . .
        VecDouble . . . . + + . + . . . .
        Animal    . . . . + + . . + . . .
        Cat       . . . . + + . . . + . .
        Dog       . . . . + + . . . . + .
        Sphynx    . . . . + + . . . . . +
    """,
    "io": """
        Int       + . . . + + . . . . . .
        Double    . + . . + + . . . . . .
        Bool      . . + . + + . . . . . .
        String    + + + + + + + + + + + +
        Generic   + + + + + + + + + + + +
        AnyT      + + + + + + + + + + + +
        Point     . . . . + + + . . . . .
        VecDouble . . . . + + . + . . . .
        Animal    . . . . + + . . + . . .
        Cat       . . . . + + . . . + . .
        Dog       . . . . + + . . . . + .
        Sphynx    . . . . + + . . . . . +
    """,
}


def matrix_expectations():
    """{(first, first_dir, second, second_dir): loads?} for every combination."""
    names = list(TYPES)
    expected = {}
    for second_dir, table in MATRIX.items():
        for row in table.strip().splitlines():
            first, *cells = row.split()
            for second, cell in zip(names, cells):
                for first_dir in DIRECTIONS:
                    expected[(first, first_dir, second, second_dir)] = cell == "+"
    return expected


def main_with(body: str, *subtrees: tuple[str, str]) -> str:
    trees = "".join(f'<BehaviorTree ID="{tree_id}">{tree_body}</BehaviorTree>' for tree_id, tree_body in subtrees)
    return (f'<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main">{body}'
            f'</BehaviorTree>{trees}</root>')


def seq(*nodes: str) -> str:
    return "<Sequence>" + "".join(nodes) + "</Sequence>"


SWITCH = '<Switch2 variable="{m}" case_1="1" case_2="2"><AlwaysSuccess/><AlwaysSuccess/><AlwaysFailure/></Switch2>'

# name: (xml, what 4.10 did). Entries met through SubTree remapping, _autoremap and
# @root; SubTree literals (typed since 4.9.1); the built-in nodes' own port types.
CASES = {
    "subtree_remap_to_string": (main_with(seq('<Int out="{x}"/>', '<SubTree ID="S" a="{x}"/>'),
                                          ("S", '<String in="{a}"/>')), "ERR"),
    "subtree_remap_to_int": (main_with(seq('<Int out="{x}"/>', '<SubTree ID="S" a="{x}"/>'),
                                       ("S", '<Int in="{a}"/>')), "OK"),
    "subtree_remap_eq_sign": (main_with(seq('<Int out="{a}"/>', '<SubTree ID="S" a="{=}"/>'),
                                        ("S", '<Double in="{a}"/>')), "ERR"),
    "autoremap_to_double": (main_with(seq('<Int out="{x}"/>', '<SubTree ID="S" _autoremap="true"/>'),
                                      ("S", '<Double in="{x}"/>')), "ERR"),
    "autoremap_private_key": (main_with(seq('<Int out="{_x}"/>', '<SubTree ID="S" _autoremap="true"/>'),
                                        ("S", '<Double in="{_x}"/>')), "OK"),
    "isolated_subtree": (main_with(seq('<Int out="{x}"/>', '<SubTree ID="S"/>'), ("S", '<Double in="{x}"/>')), "OK"),
    "root_key_from_subtree": (main_with(seq('<Int out="{x}"/>', '<SubTree ID="S"/>'),
                                        ("S", '<Double in="{@x}"/>')), "ERR"),
    "root_key_both_sides": (main_with(seq('<Int out="{@x}"/>', '<Double in="{x}"/>')), "ERR"),
    "subtree_types_parent_entry": (main_with(seq('<SubTree ID="S" a="{x}"/>', '<String in="{x}"/>'),
                                             ("S", '<Int out="{a}"/>')), "ERR"),
    "subtree_string_types_parent_entry": (main_with(seq('<SubTree ID="S" a="{x}"/>', '<Int in="{x}"/>'),
                                                    ("S", '<String out="{a}"/>')), "OK"),
    "literal_int_to_int": (main_with('<SubTree ID="S" v="5"/>', ("S", '<Int in="{v}"/>')), "OK"),
    "literal_int_to_double": (main_with('<SubTree ID="S" v="5"/>', ("S", '<Double in="{v}"/>')), "ERR"),
    "literal_int_to_string": (main_with('<SubTree ID="S" v="5"/>', ("S", '<String in="{v}"/>')), "ERR"),
    "literal_int_to_generic": (main_with('<SubTree ID="S" v="5"/>', ("S", '<Generic in="{v}"/>')), "OK"),
    "literal_real_to_double": (main_with('<SubTree ID="S" v="0.5"/>', ("S", '<Double in="{v}"/>')), "OK"),
    "literal_real_to_int": (main_with('<SubTree ID="S" v="1e3"/>', ("S", '<Int in="{v}"/>')), "ERR"),
    "literal_int64_to_int": (main_with('<SubTree ID="S" v="3000000000"/>', ("S", '<Int in="{v}"/>')), "ERR"),
    "literal_plus_sign_is_text": (main_with('<SubTree ID="S" v="+5"/>', ("S", '<Double in="{v}"/>')), "OK"),
    "literal_space_is_text": (main_with('<SubTree ID="S" v=" 5"/>', ("S", '<Double in="{v}"/>')), "OK"),
    "literal_hex_is_text": (main_with('<SubTree ID="S" v="0x10"/>', ("S", '<Double in="{v}"/>')), "OK"),
    "literal_nan_is_double": (main_with('<SubTree ID="S" v="nan"/>', ("S", '<Int in="{v}"/>')), "ERR"),
    "literal_infinity_is_double": (main_with('<SubTree ID="S" v="Infinity"/>', ("S", '<String in="{v}"/>')), "ERR"),
    "literal_overflow_is_text": (main_with('<SubTree ID="S" v="1e400"/>', ("S", '<Int in="{v}"/>')), "OK"),
    "literal_underflow_is_text": (main_with('<SubTree ID="S" v="1e-400"/>', ("S", '<Int in="{v}"/>')), "OK"),
    "literal_denormal_is_double": (main_with('<SubTree ID="S" v="4e-320"/>', ("S", '<Int in="{v}"/>')), "ERR"),
    "literal_digit_separator_is_text": (main_with('<SubTree ID="S" v="1_0"/>', ("S", '<Double in="{v}"/>')), "OK"),
    "literal_big_int_is_double": (main_with('<SubTree ID="S" v="9223372036854775808"/>',
                                            ("S", '<Double in="{v}"/>')), "OK"),
    "literal_vector_is_text": (main_with('<SubTree ID="S" v="3;7"/>', ("S", '<VecDouble in="{v}"/>')), "OK"),
    "literal_bool_is_text": (main_with('<SubTree ID="S" v="true"/>', ("S", '<Bool in="{v}"/>')), "OK"),
    "string_then_int_then_double": (main_with(seq('<String out="{v}"/>', '<Int in="{v}"/>', '<Double in="{v}"/>')),
                                    "OK"),
    "generic_then_int_then_double": (main_with(seq('<Generic out="{v}"/>', '<Int in="{v}"/>',
                                                   '<Double in="{v}"/>')), "OK"),
    "int_then_generic_then_double": (main_with(seq('<Int out="{v}"/>', '<Generic in="{v}"/>',
                                                   '<Double in="{v}"/>')), "ERR"),
    "int_then_string_output": (main_with(seq('<Int out="{v}"/>', '<String out="{v}"/>')), "ERR"),
    "sleep_after_int": (main_with(seq('<Int out="{t}"/>', '<Sleep msec="{t}"/>')), "ERR"),
    "int_after_sleep": (main_with(seq('<Sleep msec="{t}"/>', '<Int in="{t}"/>')), "ERR"),
    "sleep_after_string": (main_with(seq('<String out="{t}"/>', '<Sleep msec="{t}"/>')), "OK"),
    "timeout_after_int": (main_with(seq('<Int out="{t}"/>', '<Timeout msec="{t}"><AlwaysSuccess/></Timeout>')),
                          "ERR"),
    "delay_after_int": (main_with(seq('<Int out="{t}"/>', '<Delay delay_msec="{t}"><AlwaysSuccess/></Delay>')),
                        "ERR"),
    "repeat_after_int": (main_with(seq('<Int out="{n}"/>', '<Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat>')),
                         "OK"),
    "repeat_after_double": (main_with(seq('<Double out="{n}"/>',
                                          '<Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat>')), "ERR"),
    "switch_after_int": (main_with(seq('<Int out="{m}"/>', SWITCH)), "ERR"),
    "switch_after_string": (main_with(seq('<String out="{m}"/>', SWITCH)), "OK"),
    "int_after_switch": (main_with(seq(SWITCH, '<Int out="{m}"/>')), "OK"),
    "switch_case_after_double": (main_with(seq('<Double out="{c}"/>', SWITCH.replace('case_1="1"', 'case_1="{c}"'))),
                                 "ERR"),
    # 4.10 refuses this one for another reason: ScriptCondition loads its script when it
    # is created, and {c} is still empty ("Missing port [code] in ScriptCondition").
    "script_condition_after_int": (main_with(seq('<Int out="{c}"/>', '<ScriptCondition code="{c}"/>')), "ERR"),
    "script_after_int": (main_with(seq('<Int out="{c}"/>', '<Script code="{c}"/>')), "ERR"),
    "precondition_after_int": (main_with(seq('<Int out="{c}"/>',
                                             '<Precondition if="{c}" else="FAILURE"><AlwaysSuccess/></Precondition>')),
                               "ERR"),
    "precondition_else_after_string": (main_with(seq('<String out="{e}"/>',
                                                     '<Precondition if="true" else="{e}"><AlwaysSuccess/>'
                                                     '</Precondition>')), "OK"),
    "precondition_else_after_int": (main_with(seq('<Int out="{e}"/>',
                                                  '<Precondition if="true" else="{e}"><AlwaysSuccess/>'
                                                  '</Precondition>')), "ERR"),
    "set_blackboard_generic": (main_with(seq('<Int out="{x}"/>', '<SetBlackboard value="{x}" output_key="y"/>',
                                             '<Point in="{y}"/>')), "OK"),
    "loop_double_from_vector": (main_with(seq('<VecDouble out="{q}"/>',
                                              '<LoopDouble queue="{q}" value="{v}"><Double in="{v}"/></LoopDouble>')),
                                "OK"),
    "loop_double_value_to_int": (main_with(seq('<VecDouble out="{q}"/>',
                                               '<LoopDouble queue="{q}" value="{v}"><Int in="{v}"/></LoopDouble>')),
                                 "ERR"),
    "loop_string_value_to_int": (main_with(seq('<LoopString queue="a;b" value="{v}"><Int in="{v}"/></LoopString>')),
                                 "OK"),
    "was_entry_updated_any": (main_with(seq('<Point out="{p}"/>', '<WasEntryUpdated entry="{p}"/>')), "OK"),
    "skip_unless_updated_any": (main_with(seq('<Cat out="{p}"/>',
                                              '<SkipUnlessUpdated entry="{p}"><AlwaysSuccess/></SkipUnlessUpdated>')),
                                "OK"),
    "run_once_then_skip_after_int": (main_with(seq('<Int out="{b}"/>',
                                                   '<RunOnce then_skip="{b}"><AlwaysSuccess/></RunOnce>')), "ERR"),
    "parallel_counts_after_int": (main_with(seq('<Int out="{n}"/>', '<Parallel success_count="{n}" '
                                                'failure_count="{n}"><AlwaysSuccess/></Parallel>')), "OK"),
    "unset_blackboard_key_after_int": (main_with(seq('<Int out="{k}"/>', '<UnsetBlackboard key="{k}"/>')), "ERR"),
    "inout_cat_to_animal": (main_with(seq('<Cat out="{p}"/>', '<Animal io="{p}"/>')), "ERR"),
    "third_port_meets_first_type": (main_with(seq('<Cat out="{p}"/>', '<Animal in="{p}"/>', '<Dog in="{p}"/>')),
                                    "ERR"),
    "downcast_then_transitive_downcast": (main_with(seq('<Animal out="{p}"/>', '<Cat in="{p}"/>',
                                                        '<Sphynx in="{p}"/>')), "ERR"),
}
