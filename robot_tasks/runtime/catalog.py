"""TreeCatalog: the XML trees an executor can run, found in a list of directories.

ROS-free (the tree_executor node wraps it). At start-up :meth:`TreeCatalog.load_all`
registers every ``*.xml`` under the tree directories with one factory; a file
that does not load is reported (``file:line: reason``) and skipped, the others
stay usable. A run target is then either a registered tree ID or a path to an
XML file (absolute, or relative to a tree directory), read fresh at each run so
edits to a file are picked up without restarting.

Payloads (the ExecuteTree goal's ``payload``) are YAML/JSON mappings whose
entries are written to the root blackboard before the first tick.
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import yaml

from robot_tasks.bt import BehaviorTreeError, Tree
from robot_tasks.runtime.errors import InvalidPayloadError, TreeLoadError, UnknownTreeError


def default_tree_dirs() -> list[Path]:
    """The package's ``trees/`` folder: in the source tree (``<repo>/trees``) or, when
    installed, ``<prefix>/share/robot_tasks/trees``. Only existing folders are returned."""
    import os
    import sys

    package_dir = Path(__file__).resolve().parents[1]  # .../robot_tasks
    candidates = [package_dir.parent / "trees"]
    if len(package_dir.parents) >= 4:
        candidates.append(package_dir.parents[3] / "share" / "robot_tasks" / "trees")
    candidates.append(Path(sys.prefix) / "share" / "robot_tasks" / "trees")
    for prefix in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if prefix:
            candidates.append(Path(prefix) / "share" / "robot_tasks" / "trees")
    for path in candidates:  # the first match is the package's own copy; later ones repeat it
        if path.is_dir():
            return [path.resolve()]
    return []


class TreeCatalog:
    """Loaded tree IDs (and the file defining each) plus the rules to create a run's tree."""

    def __init__(self, factory, tree_dirs: list[str | Path]):
        self.factory = factory
        self.tree_dirs = [Path(d).expanduser().resolve() for d in tree_dirs]
        self.files: dict[str, str] = {}     # tree ID -> file that defines it
        self.problems: list[str] = []       # load errors, "file:line: reason"

    def load_all(self) -> list[str]:
        """Register every XML file under the tree dirs; return the problems found."""
        self.problems = []
        seen: set[Path] = set()
        for directory in self.tree_dirs:
            if not directory.is_dir():
                self.problems.append(f"{directory}: tree directory does not exist")
                continue
            for path in sorted(directory.rglob("*.xml")):
                if path.resolve() in seen:
                    continue
                seen.add(path.resolve())
                self._load_file(path)
        return self.problems

    def _load_file(self, path: Path) -> None:
        before = set(self.factory.registered_behavior_trees())
        try:
            self.factory.register_behavior_tree_from_file(path)
        except BehaviorTreeError as exc:
            self.problems.append(str(exc))
            return
        except Exception as exc:  # a broken file must not stop the others from loading
            self.problems.append(f"{path}: {type(exc).__name__}: {exc}")
            return
        for tree_id in self.factory.registered_behavior_trees():
            if tree_id not in before:
                self.files[tree_id] = str(path.resolve())

    def tree_ids(self) -> list[str]:
        return sorted(self.files)

    # ---- creating a run's tree --------------------------------------------------------
    def create(self, target: str, payload: dict[str, Any] | None = None) -> tuple[Tree, str]:
        """The tree for `target` with the payload on its root blackboard -> (tree, tree_id).

        Raises UnknownTreeError, TreeLoadError or InvalidPayloadError.
        """
        target = (target or "").strip()
        if not target:
            raise UnknownTreeError(f"target_tree is empty; loaded trees: {self._known()}")
        if target in self.files:
            tree_id = target
            try:
                tree = self.factory.create_tree(target)
            except BehaviorTreeError as exc:
                raise TreeLoadError(str(exc)) from None
        else:
            path = self._find_file(target)
            if path is None:
                raise UnknownTreeError(f"unknown tree '{target}'{self._suggestion(target)}: it is not a "
                                       f"loaded tree ID and no such XML file is in "
                                       f"{', '.join(map(str, self.tree_dirs)) or 'the tree dirs'}; "
                                       f"loaded trees: {self._known()}")
            tree_id = str(path)
            try:
                tree = self.factory.create_tree_from_file(path)
            except BehaviorTreeError as exc:
                raise TreeLoadError(str(exc)) from None
            tree_id = tree.subtrees[0].tree_id if tree.subtrees else str(path)
        self._apply_payload(tree, payload or {})
        return tree, tree_id

    def sources(self, target: str, tree: Tree) -> tuple[str, dict[str, str]]:
        """(the file `target`'s tree is read from, {subtree ID: file} for the subtrees of
        `tree` that another loaded file defines); '' when the file is not known."""
        target = (target or "").strip()
        main = self.files.get(target, "")
        if not main:
            path = self._find_file(target)
            main = str(path) if path is not None else ""
        others = {}
        for subtree in tree.subtrees:
            defined_in = self.files.get(subtree.tree_id)
            if defined_in and defined_in != main:
                others[subtree.tree_id] = defined_in
        return main, others

    def _find_file(self, target: str) -> Path | None:
        if not target.endswith(".xml") and "/" not in target:
            return None
        candidate = Path(target).expanduser()
        options = [candidate] if candidate.is_absolute() else [d / candidate for d in self.tree_dirs]
        for option in options:
            if option.is_file():
                return option.resolve()
        return None

    @staticmethod
    def _apply_payload(tree: Tree, payload: dict[str, Any]) -> None:
        board = tree.root_blackboard
        for key, value in payload.items():
            try:
                board.set(key, value)
            except BehaviorTreeError as exc:
                raise InvalidPayloadError(f"payload key '{key}': {exc}") from None

    def _known(self) -> str:
        return ", ".join(self.tree_ids()) or "none"

    def _suggestion(self, target: str) -> str:
        close = difflib.get_close_matches(target, self.tree_ids(), n=1, cutoff=0.6)
        return f" (did you mean '{close[0]}'?)" if close else ""


def parse_payload(text: str) -> dict[str, Any]:
    """The ExecuteTree payload -> a dict of blackboard entries.

    Empty text -> {}. Anything but a mapping with string keys raises
    InvalidPayloadError naming the problem (and the line/column for YAML errors).
    """
    if not text or not text.strip():
        return {}
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise InvalidPayloadError(f"payload is not valid YAML{where}: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InvalidPayloadError(f"payload must be a YAML mapping like '{{key: value}}', got a "
                                  f"{type(data).__name__}: {text.strip()[:80]!r}")
    bad = [k for k in data if not isinstance(k, str) or not k]
    if bad:
        raise InvalidPayloadError(f"payload keys must be non-empty strings, got {bad[0]!r}")
    return data
