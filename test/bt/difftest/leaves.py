"""Scripted test leaves whose every call is recorded, so two engines can be compared.

Each leaf instance in a generated tree is its own registered node type (``L0``, ``L1`` …),
so the same Python callbacks can be registered in BT.CPP (through behaviortreepy, which has
no ports and no per-node access for Python nodes) and in our engine. A leaf walks through
a fixed list of statuses, one per call, wrapping around at the end. Every call and every
halt is appended to a shared :class:`Recorder`, which is what the harness compares.
"""

from dataclasses import dataclass

# Leaf kinds, matching the three registration helpers both factories offer.
ACTION = "action"        # register_simple_action: SUCCESS/FAILURE only (sync)
CONDITION = "condition"  # register_simple_condition: SUCCESS/FAILURE only
STATEFUL = "stateful"    # register_simple_stateful_action: may return RUNNING, gets halted


class BudgetExceeded(RuntimeError):
    """Raised from inside a leaf when a run makes too many leaf calls (a livelock guard)."""


@dataclass(frozen=True)
class LeafSpec:
    """What one leaf type does: its id, kind, status script, and halt behaviour."""

    leaf_id: str
    kind: str
    script: tuple          # status names, e.g. ("RUNNING", "SUCCESS")
    restart_on_halt: bool  # after a halt, start the script again from the top

    def describe(self):
        extra = " restart_on_halt" if self.restart_on_halt else ""
        return f"{self.leaf_id}: {self.kind} {'/'.join(self.script)}{extra}"


class Recorder:
    """The event log shared by all leaves of one run, plus the call budget."""

    def __init__(self, budget):
        self.events = []
        self.budget = budget
        self.exceeded = False

    def add(self, event):
        if self.exceeded:
            # behaviortreepy turns the exception into FAILURE and goes on ticking:
            # record nothing more, so both engines' traces end at the same call.
            raise BudgetExceeded(f"more than {self.budget} leaf calls")
        self.events.append(event)
        if len(self.events) > self.budget:
            self.exceeded = True
            raise BudgetExceeded(f"more than {self.budget} leaf calls")


class LeafBehaviour:
    """The mutable state of one leaf type during one run.

    ``status_of`` maps a status name to the engine's own status object, and
    ``status_name(node)`` reads the status the engine shows for the node while its
    callback runs (BT.CPP marks a simple action RUNNING before calling it, a stateful
    one is IDLE in on_start and RUNNING in on_running), so the same behaviour drives
    and observes either engine.
    """

    def __init__(self, spec, recorder, status_of, status_name):
        self.spec = spec
        self.recorder = recorder
        self.status_name = status_name
        self.observe_status = True
        self._statuses = [status_of(name) for name in spec.script]
        self._cursor = 0

    def _next(self, what, node):
        index = self._cursor % len(self._statuses)
        self._cursor += 1
        seen = self.status_name(node) if self.observe_status else "-"
        self.recorder.add((self.spec.leaf_id, what, self.spec.script[index], seen))
        return self._statuses[index]

    def tick(self, node):
        return self._next("tick", node)

    def on_start(self, node):
        return self._next("start", node)

    def on_running(self, node):
        return self._next("running", node)

    def on_halted(self, node):
        self.recorder.add((self.spec.leaf_id, "halt", "", self.status_name(node)))
        if self.spec.restart_on_halt:
            self._cursor = 0


def register_leaves(factory, specs, recorder, engine):
    """Register every leaf spec in ``factory`` with the engine adapter's ``register``."""
    for spec in specs:
        behaviour = LeafBehaviour(spec, recorder, engine.status_of, engine.status_name)
        engine.register(factory, spec.kind, spec.leaf_id, behaviour)
