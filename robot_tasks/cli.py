"""The `robot-tasks` command.

Each sub-command lives in its own module under `robot_tasks.commands` and exposes
`register(subparsers)`, which adds its parser and sets `func` (taking the parsed
args, returning an exit code). Modules are discovered, so adding a command touches
no shared file; a module whose name starts with "_" is a helper, not a command.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from robot_tasks import __version__, commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="robot-tasks",
        description="Run BehaviorTree.CPP v4 XML trees against simulated or real robot arms.",
    )
    parser.add_argument("--version", action="version", version=f"robot-tasks {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:   # a command that did not handle Ctrl-C itself: no traceback
        return 130


if __name__ == "__main__":
    sys.exit(main())
