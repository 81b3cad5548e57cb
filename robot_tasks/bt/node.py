"""TreeNode: the base of every node, and the tick machinery BT.CPP puts in `tree_node.cpp`.

Speed matters here (a tree tick visits every node), so:
- `status` is a plain attribute; statuses are compared by identity;
- `execute_tick()` on the class is the lean path: tick, store the status, return it;
- a node that has pre/post-condition scripts or tick callbacks gets an instance
  attribute `execute_tick` bound to `_execute_tick_full`, which adds BT.CPP's
  `checkPreConditions` / `checkPostConditions` / callbacks around `tick()`;
- status-change observers are attached by swapping the node's class for a subclass
  whose `status` is a notifying property (see `observers.py`), so unobserved trees pay
  nothing.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Callable, Mapping

from .blackboard import EMPTY, Blackboard
from .errors import LogicError, PortError, RuntimeTreeError
from .ports import PortDirection, PortInfo, blackboard_key, convert_from_string, convert_value, ports_dict
from .scripts import bind_script
from .status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus

_RAISE: Any = object()


class NodeType(Enum):
    """The kind of a node, as in BT.CPP's manifest (and Groot2's model tags)."""

    UNDEFINED = "Undefined"
    ACTION = "Action"
    CONDITION = "Condition"
    CONTROL = "Control"
    DECORATOR = "Decorator"
    SUBTREE = "SubTree"


class NodeConfig:
    """Everything a node gets from the tree it lives in (BT.CPP `NodeConfig`).

    `input_ports` / `output_ports` map port names to their XML text (`{key}` or a
    literal); INOUT ports appear in both. `pre_conditions` / `post_conditions` map
    attribute names (`_skipIf`, ...) to compiled scripts. `other_attributes` holds the
    XML attributes that are neither ports nor reserved (`_description="..."`), as BT.CPP.
    """

    def __init__(self, blackboard: Blackboard | None = None, input_ports: dict[str, str] | None = None,
                 output_ports: dict[str, str] | None = None, enums: Mapping[str, int] | None = None,
                 uid: int = 0, path: str = "", manifest: Any = None, wake_up: Any = None,
                 pre_conditions: dict[str, Any] | None = None,
                 post_conditions: dict[str, Any] | None = None):
        self.blackboard = blackboard if blackboard is not None else Blackboard()
        self.input_ports = input_ports if input_ports is not None else {}
        self.output_ports = output_ports if output_ports is not None else {}
        self.enums = enums if enums is not None else {}
        self.uid = uid
        self.path = path
        self.manifest = manifest
        self.wake_up = wake_up
        self.pre_conditions = pre_conditions or {}
        self.post_conditions = post_conditions or {}
        self.other_attributes: dict[str, str] = {}


class TreeNode:
    """Base class of all nodes. Subclasses implement `tick()` and usually `halt()`.

    Construct like BT.CPP: `MyNode(name, config)`. Declare ports with a static or
    class method `provided_ports()` returning a list of InputPort/OutputPort/...
    """

    node_type = NodeType.UNDEFINED
    # the pattern of the substitution rule that put this node in place of the XML's, if any
    substituted_by: str | None = None
    # pre/post-condition scripts bound to the node's blackboard (see _bind_conditions)
    _pre_checks: tuple = ()
    _while_test: Callable | None = None
    _cond_on_success: Callable | None = None
    _cond_on_failure: Callable | None = None
    _cond_post: Callable | None = None
    _cond_on_halted: Callable | None = None

    def __init__(self, name: str, config: NodeConfig | None = None):
        if config is None:
            config = NodeConfig()
        self.name = name
        self.config = config
        self.status = IDLE
        self.blackboard = config.blackboard
        self.uid = config.uid
        self.registration_id = ""
        self._port_cache: dict[str, tuple] = {}  # input ports
        self._output_port_cache: dict[str, tuple] = {}
        self._pre_tick_callback: Callable | None = None
        self._post_tick_callback: Callable | None = None
        if config.pre_conditions or config.post_conditions:
            self._bind_conditions()
            self.execute_tick = self._execute_tick_full

    # ---- to be implemented by subclasses -------------------------------------------
    @staticmethod
    def provided_ports() -> list[PortInfo]:
        return []

    def tick(self) -> NodeStatus:
        raise NotImplementedError(f"{type(self).__name__} must implement tick()")

    def halt(self) -> None:
        """Stop whatever the node is doing; the default just resets the status."""
        self.status = IDLE

    # ---- identity --------------------------------------------------------------------
    @property
    def full_path(self) -> str:
        return self.config.path or self.name

    @property
    def type(self) -> NodeType:
        return self.node_type

    def __repr__(self) -> str:
        return f"<{type(self).__name__} '{self.name}' {self.status.name}>"

    # ---- ticking ---------------------------------------------------------------------
    def execute_tick(self) -> NodeStatus:
        """Tick the node and store its status (the lean path; see the module docstring)."""
        status = self.tick()
        if status is SUCCESS or status is FAILURE or status is RUNNING:
            self.status = status
            return status
        return self._unusual_status(status)

    def _unusual_status(self, status: Any) -> NodeStatus:
        if status is SKIPPED:
            return status  # a skipped node keeps its stored status but reports SKIPPED
        if status is IDLE:
            raise RuntimeTreeError(f"Node [{self.name}]: you are not allowed to set manually the "
                                   f"status to IDLE (tick() returned IDLE)")
        raise LogicError(f"Node [{self.name}]: tick() returned {status!r}, which is not a NodeStatus")

    def _tick_checked(self) -> NodeStatus:
        """tick() plus the class's own result check (SyncActionNode refuses RUNNING)."""
        return self.tick()

    def _execute_tick_full(self) -> NodeStatus:
        """BT.CPP's TreeNode::executeTick with pre/post conditions and tick callbacks."""
        new_status = None
        checks = self._pre_checks
        if checks:
            status = self.status
            if status is IDLE or status is SKIPPED:  # _check_pre_conditions, inlined (hot: _skipIf)
                board, enums = self.blackboard, self._cond_enums
                for test, result in checks:
                    if result is None:  # _while: false skips the node
                        if not test(board, enums):
                            new_status = SKIPPED
                            break
                    elif test(board, enums):
                        new_status = result
                        break
            elif status is RUNNING:
                new_status = self._check_pre_conditions()
        if new_status is None:
            pre_tick = self._pre_tick_callback
            if pre_tick is not None and self.status is not SUCCESS and self.status is not FAILURE:
                override = pre_tick(self)
                if override is SUCCESS or override is FAILURE:
                    new_status = override
            if new_status is None:
                new_status = self._tick_checked()
        if (new_status is SUCCESS or new_status is FAILURE) and self.config.post_conditions:
            self._check_post_conditions(new_status)
        post_tick = self._post_tick_callback
        if post_tick is not None:
            override = post_tick(self, new_status)
            if override is SUCCESS or override is FAILURE:
                new_status = override
        if new_status is SUCCESS or new_status is FAILURE or new_status is RUNNING:
            self.status = new_status
            return new_status
        return self._unusual_status(new_status)

    def _bind_conditions(self) -> None:
        """Compile the condition scripts for this node's blackboard, once: the checks in
        BT.CPP's order (`_failureIf`, `_successIf`, `_skipIf`, `_while`) and the
        post-condition runs. A node's blackboard does not change after creation."""
        config = self.config
        board = config.blackboard
        self._cond_enums = config.enums
        checks = []
        for attribute, result in (("_failureIf", FAILURE), ("_successIf", SUCCESS),
                                  ("_skipIf", SKIPPED), ("_while", None)):
            program = config.pre_conditions.get(attribute)
            if program is not None:
                test = bind_script(program, board).test
                checks.append((test, result))
                if result is None:
                    self._while_test = test
        self._pre_checks = tuple(checks)
        for attribute, slot in (("_onSuccess", "_cond_on_success"), ("_onFailure", "_cond_on_failure"),
                                ("_post", "_cond_post"), ("_onHalted", "_cond_on_halted")):
            program = config.post_conditions.get(attribute)
            if program is not None:
                setattr(self, slot, bind_script(program, board).run)

    def _check_pre_conditions(self) -> NodeStatus | None:
        status = self.status
        if status is IDLE or status is SKIPPED:
            board, enums = self.blackboard, self._cond_enums
            for test, result in self._pre_checks:
                if result is None:  # _while: false skips the node
                    if not test(board, enums):
                        return SKIPPED
                elif test(board, enums):
                    return result
        elif status is RUNNING:
            test = self._while_test  # the only one re-checked while RUNNING
            if test is not None and not test(self.blackboard, self._cond_enums):
                self.halt_node()
                return SKIPPED
        return None

    def _check_post_conditions(self, status: NodeStatus) -> None:
        run = self._cond_on_success if status is SUCCESS else self._cond_on_failure
        if run is not None:
            run(self.blackboard, self._cond_enums)
        run = self._cond_post
        if run is not None:
            run(self.blackboard, self._cond_enums)

    def halt_node(self) -> None:
        """halt() followed by the `_onHalted` script (BT.CPP `haltNode`)."""
        self.halt()
        run = self._cond_on_halted
        if run is not None:
            run(self.blackboard, self._cond_enums)

    def reset_status(self) -> None:
        self.status = IDLE

    def set_status(self, status: NodeStatus) -> None:
        """Set the stored status; IDLE is refused as in BT.CPP (use reset_status)."""
        if status is IDLE:
            raise RuntimeTreeError(f"Node [{self.name}]: you are not allowed to set manually the status "
                                   f"to IDLE. Use reset_status() instead.")
        self.status = status

    def timer_queue(self):
        """Where this node's timers go (Timeout, Delay): the process-wide queue. A
        recording wraps it to note when a timer fires; a replay gives a node a queue
        whose timers fire where the recording says they did."""
        from .timer_queue import shared_timer_queue

        return shared_timer_queue()

    def emit_wake_up_signal(self) -> None:
        """Ask the tree to tick again at once (used by nodes that yield RUNNING)."""
        wake_up = self.config.wake_up
        if wake_up is not None:
            wake_up.emit()

    @property
    def requires_wake_up(self) -> bool:
        return self.config.wake_up is not None

    def set_pre_tick_callback(self, callback: Callable | None) -> None:
        """callback(node) -> status; a SUCCESS/FAILURE result replaces the tick (Groot2 hooks).
        None removes it (and the node goes back to the lean tick path if it can)."""
        self._pre_tick_callback = callback
        self._choose_tick_path()

    def set_post_tick_callback(self, callback: Callable | None) -> None:
        """callback(node, status) -> status; a SUCCESS/FAILURE result overrides the status."""
        self._post_tick_callback = callback
        self._choose_tick_path()

    def _choose_tick_path(self) -> None:
        config = self.config
        if (self._pre_tick_callback is not None or self._post_tick_callback is not None
                or config.pre_conditions or config.post_conditions
                or "tick" in self.__dict__):  # a wrapped tick (a recording) must be called
            self.execute_tick = self._execute_tick_full
        else:
            self.__dict__.pop("execute_tick", None)

    # ---- ports -----------------------------------------------------------------------
    def _port_spec(self, name: str, direction: str) -> tuple:
        """(key or None, literal value, port type) for a port, cached per node."""
        cache = self._port_cache if direction == "in" else self._output_port_cache
        spec = cache.get(name)
        if spec is not None:
            return spec
        ports = self.config.input_ports if direction == "in" else self.config.output_ports
        port_info = _declared_port(self, name)
        port_type = port_info.type if port_info is not None else None
        if name in ports:
            text = ports[name]
        elif port_info is not None and port_info.has_default and (
                direction == "in" or port_info.direction is not PortDirection.INPUT):
            text = port_info.default
        else:
            return (None, _RAISE, port_type)
        if not isinstance(text, str):  # a non-string default is already a value
            spec = (None, text, port_type)
        else:
            key = blackboard_key(text, name)
            if key is not None:
                spec = (key, None, port_type)
            else:
                try:
                    spec = (None, convert_from_string(text, port_type, self.config.enums), port_type)
                except (ValueError, TypeError) as exc:
                    raise PortError(f"node '{self.full_path}': port [{name}]: {exc}") from None
        cache[name] = spec
        return spec

    def get_input(self, name: str, default: Any = _RAISE) -> Any:
        """The value of input port `name`: the XML literal (converted to the port's
        type), or the blackboard entry it points to. Raises PortError when the port
        is missing or its entry is empty, unless `default` is given."""
        spec = self._port_cache.get(name)
        key, value, port_type = spec if spec is not None else self._port_spec(name, "in")
        if key is None:
            if value is _RAISE:
                if default is not _RAISE:
                    return default
                raise PortError(f"node '{self.full_path}': input port [{name}] is not set in the XML "
                                f"and has no default")
            return value
        entry = self.config.blackboard.get_entry(key)
        if entry is None or entry.value is EMPTY:
            if default is not _RAISE:
                return default
            state = "missing" if entry is None else "empty"
            raise PortError(f"node '{self.full_path}': getInput() failed: the blackboard entry [{key}] "
                            f"remapped to port [{name}] is {state}")
        value = entry.value
        if port_type is None or value.__class__ is port_type:
            return value
        try:
            return convert_value(value, port_type, self.config.enums)
        except (ValueError, TypeError) as exc:
            raise PortError(f"node '{self.full_path}': port [{name}]: {exc}") from None

    def set_output(self, name: str, value: Any) -> None:
        """Write `value` to the blackboard entry output port `name` points to."""
        key, literal, _ = self._port_spec(name, "out")
        if key is None:
            if literal is _RAISE:
                raise PortError(f"node '{self.full_path}': output port [{name}] is not remapped in "
                                f"the XML")
            raise PortError(f"node '{self.full_path}': output port [{name}] must point to a blackboard "
                            f"entry like {{key}}, not the literal {literal!r}")
        self.config.blackboard.set(key, value)

    def get_raw_port_value(self, name: str) -> str:
        ports = self.config.input_ports
        if name not in ports:
            ports = self.config.output_ports
        if name not in ports:
            raise PortError(f"node '{self.full_path}': port [{name}] not found")
        return ports[name]


def _declared_port(node: TreeNode, name: str) -> PortInfo | None:
    manifest = node.config.manifest
    if manifest is not None:
        return manifest.ports.get(name)
    return ports_dict(type(node).provided_ports()).get(name)
