"""Switch2 .. Switch6 (BT.CPP `switch_node.h`)."""
from __future__ import annotations

import math
import re

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort
from ..status import RUNNING, SKIPPED, NodeStatus

_INT = re.compile(r"-?[0-9]+\Z")
_REAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\Z|-?(?:inf|infinity|nan)\Z", re.I)
_FLOAT_EPSILON = 1.1920928955078125e-07  # std::numeric_limits<float>::epsilon()


def case_text(value) -> str:
    """Blackboard values as BT.CPP's Switch sees them (std::to_string for numbers)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return "%f" % value
    return str(value)


def check_string_equality(left: str, right: str, enums) -> bool:
    """BT.CPP 4.10 `CheckStringEquality`: same text, or same int (enum names allowed),
    or reals equal within float epsilon. Trailing characters never match."""
    if left == right:
        return True

    def to_int(text):
        if enums and text in enums:
            return int(enums[text])
        return int(text) if _INT.match(text) else None

    left_int, right_int = to_int(left), to_int(right)
    if left_int is not None and right_int is not None and left_int == right_int:
        return True
    if _REAL.match(left) and _REAL.match(right):
        left_real, right_real = float(left), float(right)
        if math.isinf(left_real) and left_real == right_real:
            return True
        return abs(left_real - right_real) <= _FLOAT_EPSILON
    return False


class SwitchNode(ControlNode):
    """Ticks the child whose `case_i` equals `variable`, or the last (default) child.

    Subclasses fix the number of cases (Switch2 .. Switch6); a previously running
    child is halted when the match changes.
    """

    num_cases = 0

    @classmethod
    def provided_ports(cls):
        # std::string in BT.CPP (so a typed entry is refused at load); values stay generic here
        return [InputPort("variable", cpp_type="std::string")] + [
            InputPort(f"case_{i}", cpp_type="std::string") for i in range(1, cls.num_cases + 1)]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.running_child = -1

    def tick(self) -> NodeStatus:
        cases = self.num_cases
        if len(self.children) != cases + 1:
            raise LogicError(f"[Switch{cases} '{self.name}']: wrong number of children; must be "
                             f"{cases} cases + default")
        match_index = cases
        variable = self._read_case("variable")
        if variable is not None:
            enums = self.config.enums
            for index in range(cases):
                value = self._read_case(f"case_{index + 1}")
                if value is not None and check_string_equality(variable, value, enums):
                    match_index = index
                    break
        if self.running_child != -1 and self.running_child != match_index:
            self.halt_child(self.running_child)
        result = self.children[match_index].execute_tick()
        if result is SKIPPED:
            self.running_child = -1
            return SKIPPED
        if result is RUNNING:
            self.running_child = match_index
        else:
            self.reset_children()
            self.running_child = -1
        return result

    def _read_case(self, port: str) -> str | None:
        value = self.get_input(port, None)
        return None if value is None else case_text(value)

    def halt(self) -> None:
        self.running_child = -1
        ControlNode.halt(self)


def _make_switch(cases: int) -> type:
    return type(f"Switch{cases}Node", (SwitchNode,), {"num_cases": cases,
                                                      "__doc__": f"Switch with {cases} cases + default."})


Switch2Node = _make_switch(2)
Switch3Node = _make_switch(3)
Switch4Node = _make_switch(4)
Switch5Node = _make_switch(5)
Switch6Node = _make_switch(6)
