"""Seeded random BT.CPP v4 trees built from the node types both engines share.

``generate_case(seed)`` returns a :class:`Case`: the XML text, the scripted leaves it
uses, the keys pre-set on the root blackboard, and the tick plan. Trees mix all the
shared controls and decorators, SubTrees (remapped, ``{=}``, ``_autoremap``, ``@`` root
keys, private ``_`` keys), Script/ScriptCondition/SetBlackboard/Always* leaves, the
pre/post-condition attributes, compact and explicit forms, and a few shapes that are
errors in BT.CPP at tick time (Parallel thresholds, IfThenElse child counts). The same seed
always gives the same case, so any mismatch is reproducible from its seed alone.

What is deliberately *not* generated (each a known BT.CPP 4.8 vs 4.10 difference, since
behaviortreepy 0.1.4 wraps 4.8.2 and our engine follows 4.10; btcpp-semantics 1.6):
  * recursive SubTrees (4.9 rejects them at load time; 4.8 recurses until the stack
    overflows) -- a SubTree only refers to subtrees defined before it;
  * literal SubTree ports such as ``k="7"`` (typed as int since 4.9.1, a string in 4.8)
    -- only ``{key}`` remaps and ``_autoremap``;
  * Switch2..6 on numbers (4.10 stops matching "42abc" to 42) -- Switch only reads a
    string key and has non-numeric cases;
  * script operator grouping (4.9 Pratt parser) -- see ``expressions.py``.
Divergences of our engine from BT.CPP found by this harness are filtered too, each
until fixed: see ``known_divergences.py``.
Timers (Sleep, Delay, Timeout) are left out because their timing is not deterministic.
Repeat/RetryUntilSuccessful never get -1: with only synchronous children they would spin
forever inside one tick_once (wake-up yield), beyond the reach of the leaf call budget.
"""

import random
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from .expressions import STRING_LITERALS, ExpressionMaker
from .known_divergences import FILTERED
from .leaves import ACTION, CONDITION, STATEFUL, LeafSpec

STATUSES = ("RUNNING", "SUCCESS", "FAILURE", "SKIPPED")
TICK_MODES = ("once", "exactly", "while")

SEQUENCE_LIKE = ("Sequence", "ReactiveSequence", "SequenceWithMemory",
                 "Fallback", "ReactiveFallback", "AsyncSequence", "AsyncFallback")
SIMPLE_DECORATORS = ("Inverter", "ForceSuccess", "ForceFailure", "KeepRunningUntilFailure")
EXPLICIT_FORM = {tag: "Control"
                 for tag in SEQUENCE_LIKE + ("Parallel", "IfThenElse", "WhileDoElse")}
EXPLICIT_FORM.update({tag: "Decorator" for tag in SIMPLE_DECORATORS + ("Repeat", "RunOnce")})
EXPLICIT_FORM.update({"AlwaysSuccess": "Action", "AlwaysFailure": "Action",
                      "Script": "Action", "ScriptCondition": "Condition"})
PRECONDITION_ATTRS = ("_skipIf", "_failureIf", "_successIf", "_while")
POSTCONDITION_ATTRS = ("_onSuccess", "_onFailure", "_post", "_onHalted")


@dataclass
class Plan:
    """How to drive the tree: tick mode, number of root ticks, and when to halt it."""

    mode: str
    ticks: int
    halt_after: tuple = ()  # halt_tree() right after these (0-based) tick indices

    def describe(self):
        method = {"once": "tick_once", "exactly": "tick_exactly_once",
                  "while": "tick_while_running"}[self.mode]
        halts = f", halt_tree after ticks {list(self.halt_after)}" if self.halt_after else ""
        return f"{self.ticks} x {method}{halts}"


@dataclass
class Case:
    seed: int
    xml: str
    leaves: list
    counters: list
    plan: Plan
    strings: list = field(default_factory=list)

    def initial_board(self):
        """Root blackboard contents set before the tree is created."""
        board = {key: 0 for key in self.counters}
        board.update({key: "a" for key in self.strings})
        return board


class _Builder:
    """Holds the state of one generation: rng, leaf list, subtree list, size budget."""

    def __init__(self, rng, counters, strings, max_nodes):
        self.rng = rng
        self.counters = counters
        self.strings = strings
        self.leaves = []
        self.subtrees = []  # (tree_id, xml_body, used_counters)
        self.models = {}    # tree_id -> {port: default or None}, for <TreeNodesModel>
        self.nodes_left = max_nodes
        self.parents = ["BehaviorTree"]  # tags of the containers being filled
        self.expr = ExpressionMaker(rng, counters, strings)

    # ----- leaves -------------------------------------------------------------
    def new_leaf(self):
        rng = self.rng
        kind = rng.choices((ACTION, CONDITION, STATEFUL), weights=(2, 2, 5))[0]
        # SKIPPED from a leaf is legal in BT.CPP; so is RUNNING from a simple condition;
        # RUNNING from a sync action is an error in both engines (rare, to check that).
        weights = {ACTION: (0.03, 1, 1, 0.1), CONDITION: (0.1, 1, 1, 0.1),
                   STATEFUL: (1.2, 1, 1, 0.1)}[kind]
        script = tuple(rng.choices(STATUSES, weights=weights, k=rng.randint(1, 4)))
        if kind == STATEFUL and rng.random() < 0.5 and "RUNNING" not in script:
            script = ("RUNNING",) + script
        spec = LeafSpec(f"L{len(self.leaves)}", kind, script, rng.random() < 0.5)
        self.leaves.append(spec)
        return spec.leaf_id

    def leaf(self):
        rng = self.rng
        r = rng.random()
        if r < 0.62:
            return self.element(self.new_leaf())
        if r < 0.8:
            return self.element("Script", code=self.expr.script())
        if r < 0.87:
            return self.element("ScriptCondition", code=self.expr.condition())
        if r < 0.92:
            # SetBlackboard: output_key names the key (no braces); value is a literal
            # or a {key} whose entry is copied.
            value = str(rng.randint(0, 5)) if rng.random() < 0.5 else "{%s}" % self.expr.counter()
            return self.element("SetBlackboard", value=value, output_key=self.expr.counter())
        return self.element(rng.choice(("AlwaysSuccess", "AlwaysFailure")))

    # ----- inner nodes ----------------------------------------------------------
    def node(self, depth):
        self.nodes_left -= 1
        rng = self.rng
        if depth >= 5 or self.nodes_left <= 0 or rng.random() < 0.25 + 0.1 * depth:
            return self.leaf()
        r = rng.random()
        if r < 0.42:
            tag = rng.choice(SEQUENCE_LIKE)
            return self.element(tag, children=self.children(depth, 1, 4, tag))
        if r < 0.5:
            kids = self.children(depth, 1, 4)
            n = len(kids)
            # Thresholds from -(n+1) to n+1: includes negatives and the "can never
            # succeed/fail" errors both versions raise at tick time.
            return self.element("Parallel", children=kids,
                                success_count=str(rng.randint(-n - 1, n + 1)),
                                failure_count=str(rng.randint(-n - 1, n + 1)))
        if r < 0.52:
            kids = self.children(depth, 1, 4)
            return self.element("ParallelAll", children=kids,
                                max_failures=str(rng.randint(0, len(kids) + 1)))
        if r < 0.55 and self.strings:
            cases = rng.randint(2, 3)
            attrs = {f"case_{i + 1}": rng.choice(STRING_LITERALS) for i in range(cases)}
            kids = self.children(depth, cases + 1, cases + 1, f"Switch{cases}")
            return self.element(f"Switch{cases}", children=kids,
                                variable="{%s}" % self.expr.string_key(), **attrs)
        if r < 0.6:
            tag = rng.choice(("IfThenElse", "WhileDoElse"))
            low, high = (2, 3) if rng.random() < 0.95 else (1, 4)
            return self.element(tag, children=self.children(depth, low, high, tag))
        if r < 0.88:
            return self.decorator(depth)
        if self.subtrees:
            return self.subtree_instance()
        return self.leaf()

    def children(self, depth, low, high, parent_tag="Parallel"):
        self.parents.append(parent_tag)
        kids = [self.node(depth + 1) for _ in range(self.rng.randint(low, high))]
        self.parents.pop()
        return kids

    def decorator(self, depth):
        rng = self.rng
        child = [self.node(depth + 1)]
        r = rng.random()
        if r < 0.4:
            return self.element(rng.choice(SIMPLE_DECORATORS), children=child)
        if r < 0.55:
            return self.element("Repeat", children=child, num_cycles=str(rng.randint(0, 3)))
        if r < 0.7:
            return self.element("RetryUntilSuccessful", children=child,
                                num_attempts=str(rng.randint(0, 3)))
        if r < 0.82:
            return self.element("RunOnce", children=child,
                                then_skip=rng.choice(("true", "false")))
        return self.element("Precondition", children=child, **{
            "if": self.expr.condition(),
            "else": rng.choice(("FAILURE", "SUCCESS", "SKIPPED", "RUNNING"))})

    def subtree_instance(self):
        rng = self.rng
        tree_id, _body, used = rng.choice(self.subtrees)
        attrs = {}
        r = rng.random()
        if r < 0.3:
            attrs["_autoremap"] = "true"
            self.expr.used |= used  # the subtree reads these keys straight from here
        else:
            # Remap every key the subtree touches, sometimes onto another key of the
            # same kind (a string key onto an int counter is known divergence E2).
            model = self.models.get(tree_id, {})
            for key in sorted(used):
                if key in model and (model[key] is not None or rng.random() < 0.03):
                    if rng.random() < 0.5:
                        # Leave it to the <TreeNodesModel>: its default "{key}" applies
                        # (or, rarely, a mandatory port stays unremapped: an error).
                        self.expr.used.add(key)
                        continue
                same_kind = key in self.strings or "E2" not in FILTERED
                other = self.expr.string_key if same_kind and key in self.strings \
                    else self.expr.counter
                target = key if rng.random() < 0.7 else other()
                self.expr.used.add(target)
                attrs[key] = "{=}" if target == key and rng.random() < 0.2 else "{%s}" % target
            if r > 0.9:
                attrs["_autoremap"] = "true"
        return self.element("SubTree", ID=tree_id, **attrs)

    # ----- attributes and XML -----------------------------------------------------
    def element(self, tag, children=(), **attrs):
        rng = self.rng
        if rng.random() < 0.08:
            attrs[rng.choice(PRECONDITION_ATTRS)] = self.expr.condition()
        if rng.random() < 0.12:
            attrs[rng.choice(POSTCONDITION_ATTRS)] = self.expr.script()
        if rng.random() < 0.05:
            attrs["name"] = f"node {rng.randint(0, 99)}"
        # Explicit form (<Action ID="X">) under a ReactiveSequence: known divergence E1.
        explicit_ok = self.parents[-1] != "ReactiveSequence" or "E1" not in FILTERED
        if explicit_ok and tag in EXPLICIT_FORM and rng.random() < 0.1:
            attrs = {"ID": tag, **attrs}  # <Control ID="Sequence"> etc.
            tag = EXPLICIT_FORM[tag]
        elif explicit_ok and tag.startswith("L") and rng.random() < 0.1:
            attrs = {"ID": tag, **attrs}
            tag = "Action"  # the explicit tag is not checked against the kind
        text = "<" + tag + "".join(f" {k}={quoteattr(v)}" for k, v in attrs.items())
        if not children:
            return text + "/>"
        return text + ">" + "".join(children) + f"</{tag}>"

    def make_subtree(self, index):
        self.expr.used = set()
        self.expr.in_subtree = True
        body = self.node(1)
        self.expr.in_subtree = False
        self.subtrees.append((f"Sub{index}", body, set(self.expr.used)))
        if self.rng.random() < 0.3:
            # A <TreeNodesModel> entry: ports with default "{key}", or none (mandatory).
            self.models[f"Sub{index}"] = {
                key: ("{%s}" % key if self.rng.random() < 0.8 else None)
                for key in sorted(self.expr.used) if not key.startswith("@")}

    def models_xml(self):
        """The <TreeNodesModel> element for the subtrees that have a model ('' if none)."""
        if not self.models:
            return ""
        parts = []
        for tree_id, ports in self.models.items():
            port_xml = ""
            for key, default in ports.items():
                tag = self.rng.choice(("input_port", "inout_port"))
                extra = f' default="{default}"' if default is not None else ""
                port_xml += f'<{tag} name="{key}"{extra}/>'
            parts.append(f'<SubTree ID="{tree_id}">{port_xml}</SubTree>')
        return "<TreeNodesModel>" + "".join(parts) + "</TreeNodesModel>"


def generate_case(seed, max_nodes=None):
    """Build the random case for ``seed`` (deterministic)."""
    rng = random.Random(seed)
    counters = [f"c{i}" for i in range(rng.randint(1, 4))]
    strings = ["s0"] if rng.random() < 0.3 else []
    size = rng.randint(3, 22) if rng.random() < 0.9 else rng.randint(23, 45)
    builder = _Builder(rng, counters, strings, max_nodes or size)
    for index in range(rng.choice((0, 0, 1, 1, 2))):
        builder.make_subtree(index)
    builder.expr.used = set()
    main = builder.node(0)
    trees = [("Main", main)] + [(tid, body) for tid, body, _ in builder.subtrees]
    xml = '<root BTCPP_format="4" main_tree_to_execute="Main">' + "".join(
        f'<BehaviorTree ID="{tid}">{body}</BehaviorTree>' for tid, body in trees
    ) + builder.models_xml() + "</root>"
    mode = rng.choices(TICK_MODES, weights=(5, 4, 2))[0]
    ticks = rng.randint(1, 12) if mode != "while" else rng.randint(1, 3)
    halts = ()
    if mode != "while" and ticks > 1 and rng.random() < 0.3:
        halts = tuple(sorted(rng.sample(range(ticks - 1), min(2, ticks - 1))))
    return Case(seed, xml, builder.leaves, counters, Plan(mode, ticks, halts), strings)
