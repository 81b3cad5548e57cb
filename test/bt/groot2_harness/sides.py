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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/bt, for difftest

from difftest.engines import OracleEngine, OurEngine  # noqa: E402
from difftest.leaves import LeafSpec, Recorder, register_leaves  # noqa: E402

TICK_TIMEOUT_S = 5.0
ORACLE_STARTS = 5   # fresh children until one has a live heartbeat loop (see _SLEEP_SYSCALLS)


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


# BT.CPP 4.8.2's Groot2Publisher starts its server thread, which sets `active_server`, and
# then its heartbeat thread, which loops only while `active_server` is set: when the heartbeat
# thread runs first, it ends at once and breakpoints stay armed when Groot2 goes silent
# (upstream fix c6393f7b, #1058, first released in 4.9.0: the flag starts set). The loop
# sleeps 10 ms between checks, so a live one is almost always seen in a sleep syscall.
# With the child pinned to one CPU while the publisher starts, the server thread (started
# first) runs first: 20 of 20 children had a live loop, against 12 of 20 unpinned.
_SLEEP_SYSCALLS = {"35", "230"}   # nanosleep, clock_nanosleep (x86_64)


def _thread_ids():
    return set(os.listdir("/proc/self/task"))


def _a_new_thread_sleeps(threads_before, samples=50):
    """Whether a thread started since `threads_before` is seen sleeping (the heartbeat loop)."""
    for _ in range(samples):
        for tid in _thread_ids() - threads_before:
            try:
                syscall = Path(f"/proc/self/task/{tid}/syscall").read_text().split()[0]
            except (OSError, IndexError):
                continue
            if syscall in _SLEEP_SYSCALLS:
                return True
        time.sleep(0.005)
    return False


def _oracle_child(connection, xml, leaves, port, heartbeat_s):
    import behaviortreepy
    engine = OracleEngine()
    factory = engine.new_factory()
    register_leaves(factory, [LeafSpec(*leaf) for leaf in leaves], Recorder(10_000), engine)
    tree = factory.create_tree_from_text(xml)
    threads_before = _thread_ids()
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    publisher = behaviortreepy.Groot2Publisher(tree, port)
    publisher.set_max_heartbeat_delay(int(heartbeat_s * 1000))
    alive = _a_new_thread_sleeps(threads_before)
    os.sched_setaffinity(0, cpus)
    if not alive:
        connection.send("heartbeat loop ended")
        os._exit(0)
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
        for _ in range(ORACLE_STARTS):
            self._connection, child = context.Pipe()
            self._process = context.Process(target=_oracle_child, args=(child, xml, leaves, port, heartbeat_s),
                                            daemon=True)
            self._process.start()
            said = self._connection.recv() if self._connection.poll(TICK_TIMEOUT_S) else "nothing"
            if said == "ready":
                return
            self._process.join(TICK_TIMEOUT_S)
        raise RuntimeError(f"the behaviortreepy side did not start in {ORACLE_STARTS} tries (last: {said})")

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
