"""The tree side of a Groot2 comparison: a tree, its publisher, and a way to tick it.

`OurSide` runs our engine and our Groot2Publisher in this process (ticks in a
thread when they must run while the client talks). `OracleSide` runs behaviortreepy
in a forked child process driven over a pipe: behaviortreepy holds the GIL for the
whole C++ tick, so a tick blocked on a breakpoint would freeze this process.
The leaves are the differential harness's scripted leaves (difftest/leaves.py).
"""
import multiprocessing
import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/bt, for difftest

from difftest.engines import OracleEngine, OurEngine  # noqa: E402
from difftest.leaves import LeafSpec, Recorder, register_leaves  # noqa: E402

TICK_TIMEOUT_S = 5.0


def _tick(engine, tree, mode):
    return engine.tick(tree, mode)


class OurSide:
    name = "ours"

    def __init__(self, xml, leaves, port, heartbeat_s=5.0):
        from robot_tasks.bt.groot2 import Groot2Publisher
        self.engine = OurEngine()
        factory = self.engine.new_factory()
        register_leaves(factory, [LeafSpec(*leaf) for leaf in leaves], Recorder(10_000), self.engine)
        self.tree = factory.create_tree_from_text(xml)
        self.publisher = Groot2Publisher(self.tree, port, max_heartbeat_delay=heartbeat_s)
        self._thread = None
        self._result = None

    def tick(self, mode):
        return _tick(self.engine, self.tree, mode)

    def start_tick(self, mode):
        def run():
            self._result = _tick(self.engine, self.tree, mode)
        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def finish_tick(self):
        self._thread.join(TICK_TIMEOUT_S)
        return "STUCK" if self._thread.is_alive() else self._result

    def halt(self):
        self.tree.halt_tree()

    def close(self):
        self.publisher.close()


def _oracle_child(connection, xml, leaves, port, heartbeat_s):
    import behaviortreepy
    engine = OracleEngine()
    factory = engine.new_factory()
    register_leaves(factory, [LeafSpec(*leaf) for leaf in leaves], Recorder(10_000), engine)
    tree = factory.create_tree_from_text(xml)
    publisher = behaviortreepy.Groot2Publisher(tree, port)
    publisher.set_max_heartbeat_delay(int(heartbeat_s * 1000))
    connection.send("ready")
    while True:
        command = connection.recv()
        if command is None:
            break
        what, argument = command
        if what == "tick":
            connection.send(engine.tick(tree, argument))
        elif what == "halt":
            tree.halt_tree()
            connection.send("ok")
    del publisher
    del tree
    connection.send("closed")
    os._exit(0)


class OracleSide:
    name = "btcpp"

    def __init__(self, xml, leaves, port, heartbeat_s=5.0):
        context = multiprocessing.get_context("fork")
        self._connection, child = context.Pipe()
        self._process = context.Process(target=_oracle_child, args=(child, xml, leaves, port, heartbeat_s),
                                        daemon=True)
        self._process.start()
        if not self._connection.poll(TICK_TIMEOUT_S) or self._connection.recv() != "ready":
            raise RuntimeError("the behaviortreepy side did not start")

    def _receive(self):
        return self._connection.recv() if self._connection.poll(TICK_TIMEOUT_S) else "STUCK"

    def tick(self, mode):
        self._connection.send(("tick", mode))
        return self._receive()

    def start_tick(self, mode):
        self._connection.send(("tick", mode))

    def finish_tick(self):
        return self._receive()

    def halt(self):
        self._connection.send(("halt", None))
        self._receive()

    def close(self):
        try:
            self._connection.send(None)
            self._receive()
        finally:
            self._process.join(TICK_TIMEOUT_S)
            if self._process.is_alive():
                self._process.kill()  # our own child, by its handle
                self._process.join()
