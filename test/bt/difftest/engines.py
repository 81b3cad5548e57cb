"""Adapters that give both engines one small interface for the harness.

An adapter builds a root blackboard with the initial keys, builds a tree on it from
(XML, leaf specs, recorder), ticks it in a named mode, halts it, and snapshots every
key of the root blackboard. Statuses come back
as plain names ("SUCCESS"), blackboard values as floats (or strings, or MISSING), so
the two traces compare with ``==``.
"""

MISSING = "<missing>"


def _number_or_text(value):
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    return value if isinstance(value, str) else repr(value)


class OracleEngine:
    """BT.CPP 4.8.2 through behaviortreepy 0.1.4."""

    name = "btcpp"

    def __init__(self):
        import behaviortreepy
        self._bt = behaviortreepy

    def status_of(self, name):
        return getattr(self._bt.NodeStatus, name)

    @staticmethod
    def status_name(node):
        return node.status().name

    @staticmethod
    def register(factory, kind, leaf_id, behaviour):
        if kind == "action":
            factory.register_simple_action(leaf_id, behaviour.tick)
        elif kind == "condition":
            factory.register_simple_condition(leaf_id, behaviour.tick)
        else:
            factory.register_simple_stateful_action(
                leaf_id, behaviour.on_start, behaviour.on_running, behaviour.on_halted)

    def new_factory(self):
        return self._bt.BehaviorTreeFactory()

    def new_blackboard(self, initial):
        """A root blackboard holding ``initial`` (int -> typed int entry, str -> string)."""
        board = self._bt.Blackboard.create()
        for key, value in initial.items():
            if isinstance(value, str):
                board.set_string(key, value)
            else:
                board.set_int(key, value)
        return board

    @staticmethod
    def create(factory, xml, board):
        return factory.create_tree_from_text(xml, board)

    @staticmethod
    def tick(tree, mode):
        if mode == "once":
            status = tree.tick_once()
        elif mode == "exactly":
            status = tree.tick_exactly_once()
        else:
            status = tree.tick_while_running(0)
        return status.name

    @staticmethod
    def halt(tree):
        tree.halt_tree()

    @staticmethod
    def board_snapshot(board):
        """Every root key with its value (a float when it reads as a number)."""
        snapshot = {}
        for key in board.get_keys():
            snapshot[key] = MISSING
            for getter in (board.get_double, board.get_string):
                try:
                    snapshot[key] = _number_or_text(getter(key))
                    break
                except RuntimeError:
                    continue
        return dict(sorted(snapshot.items()))


class OurEngine:
    """robot_tasks.bt, through its public API (ARCHITECTURE.md, "The engine's public face")."""

    name = "ours"

    def __init__(self):
        import robot_tasks.bt as bt
        self._bt = bt

    def status_of(self, name):
        return getattr(self._bt.NodeStatus, name)

    @staticmethod
    def status_name(node):
        return node.status.name

    @staticmethod
    def register(factory, kind, leaf_id, behaviour):
        if kind == "action":
            factory.register_simple_action(leaf_id, behaviour.tick)
        elif kind == "condition":
            factory.register_simple_condition(leaf_id, behaviour.tick)
        else:
            factory.register_simple_stateful_action(
                leaf_id, behaviour.on_start, behaviour.on_running, behaviour.on_halted)

    def new_factory(self):
        return self._bt.BehaviorTreeFactory()

    def new_blackboard(self, initial):
        """Like BT.CPP's ``set<int>`` on a new key, counters get int-typed entries."""
        board = self._bt.Blackboard()
        for key, value in initial.items():
            board.create_entry(key, type(value))
            board.set(key, value)
        return board

    @staticmethod
    def create(factory, xml, board):
        return factory.create_tree_from_text(xml, board)

    @staticmethod
    def tick(tree, mode):
        if mode == "once":
            status = tree.tick_once()
        elif mode == "exactly":
            status = tree.tick_exactly_once()
        else:
            status = tree.tick_while_running(0)
        return status.name

    @staticmethod
    def halt(tree):
        tree.halt_tree()

    @staticmethod
    def board_snapshot(board):
        snapshot = {}
        for key in board.keys():
            try:
                snapshot[key] = _number_or_text(board.get(key))
            except KeyError:
                snapshot[key] = MISSING
        return dict(sorted(snapshot.items()))


def available_engines():
    """The oracle, plus our engine when it can be imported (None otherwise, with the reason)."""
    oracle = OracleEngine()
    try:
        ours = OurEngine()
        ours.new_factory()
        return oracle, ours, None
    except Exception as exc:  # the engine is being written in parallel
        return oracle, None, f"{type(exc).__name__}: {exc}"
