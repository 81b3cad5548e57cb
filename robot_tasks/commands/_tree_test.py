"""`robot-tasks tree test FILE --mocks rules.json`: run a tree with mocked leaves, no ROS.

The rules file is BT.CPP 4.10's substitution-rules JSON (`TestNodeConfigs`,
`SubstitutionRules`; see `robot_tasks.bt.testing.rules_json`). The command

1. registers the node types of `--plugin` modules (real leaves you want to keep),
2. loads the rules (an error names the file and the place in it),
3. fills the root blackboard from `--blackboard` (a JSON object, as BT.CPP's
   ImportBlackboardFromJSON reads it),
4. creates the tree; leaves that are neither registered nor mocked are an error that
   lists them, so you know what to mock,
5. prints which nodes were replaced, notes a node matched by several rules and a rule
   that matched nothing, then every status change (seconds, node path, old -> new),
6. prints the result; exit code 0 on SUCCESS, 1 otherwise (FAILURE, still RUNNING after
   `--max-ticks` ticks, or an error).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from robot_tasks.runtime.errors import PluginError
from robot_tasks.runtime.plugins import load_plugins


def add_parser(actions) -> None:
    test = actions.add_parser("test", help="run a tree with mocked leaves (BT.CPP substitution rules), no ROS",
                              description="Run a tree with its leaves mocked by BT.CPP substitution rules "
                                          "(JSON: TestNodeConfigs + SubstitutionRules) and print every "
                                          "status change. Exit 0 on SUCCESS, 1 otherwise.")
    test.add_argument("file", metavar="FILE")
    test.add_argument("--mocks", required=True, metavar="RULES.json", help="substitution rules (BT.CPP's JSON format)")
    test.add_argument("--blackboard", metavar="INIT.json", help="initial root blackboard (a JSON object)")
    test.add_argument("--tree", metavar="ID", help="BehaviorTree to run (default: the main tree)")
    test.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                      help="import MODULE and call its register_nodes(factory) (repeatable)")
    test.add_argument("--max-ticks", type=int, default=1000, metavar="N",
                      help="give up (exit 1) if the tree is still RUNNING after N ticks (default 1000)")
    test.set_defaults(func=run_test)


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 1


def run_test(args) -> int:
    from robot_tasks.bt import BehaviorTreeError, BehaviorTreeFactory, NodeStatus
    from robot_tasks.bt.testing.mock_run import MockRun, create_tree_with_mocks
    from robot_tasks.bt.testing.rules_json import unknown_config_keys

    if args.max_ticks < 1:
        return _error(f"--max-ticks must be at least 1, not {args.max_ticks}")
    factory = BehaviorTreeFactory()
    try:
        load_plugins(args.plugin, factory)
    except PluginError as exc:
        return _error(str(exc))
    try:
        rules_text = Path(args.mocks).read_text()
        factory.load_substitution_rule_from_json(rules_text)
    except (OSError, UnicodeDecodeError) as exc:
        return _error(f"{args.mocks}: can't read the rules file: {exc}")
    except BehaviorTreeError as exc:
        return _error(f"{args.mocks}: {exc}")
    for key in unknown_config_keys(rules_text):
        print(f"warning: {args.mocks}: {key} is not a TestNodeConfig field (ignored, as BT.CPP ignores it)",
              file=sys.stderr)
    try:
        blackboard = _blackboard(args.blackboard)
        tree = create_tree_with_mocks(factory, args.file, args.tree, blackboard)
    except _InputError as exc:
        return _error(str(exc))
    except BehaviorTreeError as exc:
        return _error(str(exc))
    _print_substitutions(tree, factory.substitution_rules)
    width = min(48, max(len(node.full_path) for node in tree.nodes))
    run = MockRun(tree, on_transition=lambda t: print(f"{t.time_s:8.3f}  {t.path:<{width}}  "
                                                         f"{t.previous.name} -> {t.status.name}", flush=True))
    try:
        status = run.run(max_ticks=args.max_ticks, max_seconds=max(60.0, args.max_ticks * 0.05))
    except BehaviorTreeError as exc:
        return _error(f"while ticking: {exc}")
    if run.timed_out:
        print(f"result: still RUNNING after {run.ticks} ticks ({run.elapsed_s:.2f} s): halted")
        return 1
    print(f"result: {status.name} after {run.ticks} tick{'s' if run.ticks != 1 else ''} ({run.elapsed_s:.2f} s)")
    return 0 if status is NodeStatus.SUCCESS else 1


class _InputError(Exception):
    pass


def _blackboard(path: str | None):
    from robot_tasks.bt import Blackboard
    from robot_tasks.bt.blackboard_json import import_blackboard_from_json

    if path is None:
        return None
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise _InputError(f"{path}: can't read the blackboard file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise _InputError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(data, dict):
        raise _InputError(f"{path}: the blackboard must be a JSON object of key: value")
    board = Blackboard()
    for key, why in import_blackboard_from_json(data, board).items():
        print(f"warning: {path}: entry [{key}] skipped: {why}", file=sys.stderr)
    return board


def _print_substitutions(tree, rules) -> None:
    replaced = [node for node in tree.nodes if node.substituted_by is not None]
    print(f"mocked: {len(replaced)} of {len(tree.nodes)} nodes, by {len(rules)} rules")
    matched: set[str] = set()
    for node in tree.nodes:
        patterns = rules.matching_rules(node.name, node.registration_id, node.config.path)
        matched.update(patterns)
        if len(patterns) > 1:
            print(f"note: [{node.full_path}] matches the rules {', '.join(repr(p) for p in patterns)}; "
                  f"{patterns[0]!r} is used (BT.CPP's rule order)")
    for pattern in rules:
        if pattern not in matched:
            print(f"note: the rule {pattern!r} matches no node of this tree")
