"""Run one generated case in an engine, and compare two engines' traces.

A trace is a list of steps, one per root tick or halt. Each step records the root
status (or ERROR / BUDGET / TIMEOUT), the leaf calls made during it (in order), and
every key of the root blackboard afterwards. Two traces match when every step is
equal, except that error messages are not compared (only the fact and the place of an
error). A TIMEOUT trace is that single step: a killed worker cannot say more.
"""

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace

from .leaves import BudgetExceeded, Recorder, register_leaves

LEAF_CALL_BUDGET = 5000       # per run; far above what a finite tree of this size makes
WHILE_PROBE_TICKS = 40        # tick_while_running is used only if the oracle ends by then
RUN_TIME_LIMIT = 2.0          # seconds per run: catches a loop that calls no leaf at all


_expired = threading.Event()


class RunTimeout(Exception):
    """A run took longer than RUN_TIME_LIMIT (an engine looping without leaf calls)."""


@contextmanager
def _time_limit(seconds):
    """Raise RunTimeout in this thread after ``seconds`` (pure-Python code only: a loop
    inside BT.CPP's C++ would not see it, which is why the oracle runs in a worker)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(_signum, _frame):
        _expired.set()  # remembered even if an engine wraps the exception
        raise RunTimeout(f"run exceeded {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Step:
    action: str        # "create", "tick 3", "halt"
    result: str        # status name, "ok", "ERROR", "BUDGET" or "TIMEOUT"
    events: list
    board: dict
    message: str = ""  # error text, shown but not compared

    def key(self):
        return (self.action, self.result, self.events, self.board)

    def describe(self):
        text = f"{self.action:>8}: {self.result:<8} leaves={self.events} bb={self.board}"
        if self.message:
            text += f"\n          ! {self.message.splitlines()[0][:160]}"
        return text


def run_case(engine, case, plan=None, budget=LEAF_CALL_BUDGET, time_limit=RUN_TIME_LIMIT):
    """Build ``case`` in ``engine`` and follow ``plan`` (default: the case's plan)."""
    plan = plan or case.plan
    recorder = Recorder(budget)
    steps = []
    _expired.clear()  # a forked worker may inherit a set flag from its parent
    try:
        with _time_limit(time_limit):
            _follow_plan(engine, case, plan, recorder, steps)
    except RunTimeout as exc:
        # Partial steps are dropped: a killed worker (isolation.py) cannot report them.
        return [Step("timeout", "TIMEOUT", [], {}, str(exc))]
    return steps


def _follow_plan(engine, case, plan, recorder, steps):
    factory = engine.new_factory()
    register_leaves(factory, case.leaves, recorder, engine)

    def snapshot():
        return engine.board_snapshot(board)

    def failed(action, exc):
        if _expired.is_set():
            raise RunTimeout(f"{type(exc).__name__}: {exc}")
        result = "BUDGET" if recorder.exceeded else "ERROR"
        steps.append(Step(action, result, _drain(recorder), {}, f"{type(exc).__name__}: {exc}"))

    try:
        board = engine.new_blackboard(case.initial_board())
        tree = engine.create(factory, case.xml, board)
    except Exception as exc:  # both engines must refuse the same XML
        return failed("create", exc)
    for index in range(plan.ticks):
        action = f"tick {index}"
        try:
            status = engine.tick(tree, plan.mode)
            if recorder.exceeded:
                # behaviortreepy prints a leaf's exception and returns FAILURE for
                # that leaf, so the tick may end normally: stop here either way.
                raise BudgetExceeded(f"more than {LEAF_CALL_BUDGET} leaf calls")
        except Exception as exc:
            return failed(action, exc)
        steps.append(Step(action, status, _drain(recorder), snapshot()))
        if index in plan.halt_after:
            try:
                engine.halt(tree)
                if recorder.exceeded:
                    raise BudgetExceeded(f"more than {LEAF_CALL_BUDGET} leaf calls")
            except Exception as exc:
                return failed("halt", exc)
            steps.append(Step("halt", "ok", _drain(recorder), snapshot()))


def _drain(recorder):
    events, recorder.events = recorder.events, []
    recorder.budget -= len(events)  # the budget is per run, not per step
    return events


def resolve_plan(oracle_runner, case):
    """tick_while_running may never return; use it only when the oracle shows it ends.

    tick_while_running is tick_once repeated until the root is not RUNNING, so a probe
    of repeated tick_once on a fresh tree tells whether each of the plan's calls ends:
    it must reach ``plan.ticks`` completions within WHILE_PROBE_TICKS root ticks each.
    """
    if case.plan.mode != "while":
        return case.plan
    probe = replace(case.plan, mode="once", ticks=WHILE_PROBE_TICKS * case.plan.ticks,
                    halt_after=())
    completions = 0
    for step in oracle_runner.run(case, probe):
        if step.result == "ERROR":
            return case.plan  # the error ends tick_while_running too
        if step.result in ("BUDGET", "TIMEOUT"):
            break  # a runaway: behaviortreepy turns the budget's exception into FAILURE
        if step.result != "RUNNING":
            completions += 1
            if completions == case.plan.ticks:
                return case.plan
    return replace(case.plan, mode="once")


RUNAWAY = ("BUDGET", "TIMEOUT")


def first_difference(trace_a, trace_b):
    """Index of the first differing step, or None when the traces match.

    A TIMEOUT trace (one step) matches any trace that also ends in a runaway (BUDGET
    or TIMEOUT): once the budget's exception is raised, behaviortreepy turns it into
    a FAILURE of the leaf and may keep ticking until the worker is stopped.
    """
    for trace, other in ((trace_a, trace_b), (trace_b, trace_a)):
        if trace and trace[0].result == "TIMEOUT" and other and other[-1].result in RUNAWAY:
            return None
    for index in range(max(len(trace_a), len(trace_b))):
        if index >= len(trace_a) or index >= len(trace_b):
            return index
        if trace_a[index].key() != trace_b[index].key():
            return index
    return None


def mismatch_report(case, plan, names, trace_a, trace_b, index):
    """Everything needed to reproduce a mismatch: seed, plan, leaves, XML, both traces."""
    where = f" first difference at step {index}" if index is not None else ""
    lines = [f"{'MISMATCH' if index is not None else 'CASE'} seed={case.seed} "
             f"plan={plan.describe()}{where}",
             f"reproduce: bench/bt_difftest.py --show {case.seed}",
             "leaves: " + "; ".join(spec.describe() for spec in case.leaves),
             f"root blackboard before creation: {case.initial_board()}",
             "xml: " + case.xml]
    for name, trace in zip(names, (trace_a, trace_b)):
        lines.append(f"--- {name}")
        lines.extend(step.describe() for step in trace)
    return "\n".join(lines)
