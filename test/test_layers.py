"""The layers keep their direction (../shared/ARCHITECTURE.md): a module imports only from
its own layer or the ones inside it, never from one further out. Every import is read from
the source (module level and inside functions alike), so a lazy import that runs up the
layers fails here too, named by file and line.

Inside out: the error root; the pure libraries; the task logic; what ROS processes share;
the processes; the process layer (starting and stopping them: plan, command lines, stop
sequence, supervisor); the episode runner; the harnesses that drive it; the CLI.
"""
import ast

from paths import REPO

PACKAGE = REPO / "robot_tasks"
LAYERS = [
    {"errors", "robots", "controller_topics"},   # no imports: the error root; the robots', the cell's and their controllers' names
    {"bt", "control", "perception"},
    {"sim", "runtime"},                 # sim computes with control's kinematics; runtime ticks bt trees
    {"tasks"},
    {"ros"},
    {"nodes", "monitor"},
    {"process"},
    {"demo"},
    {"testing"},
    {"commands"},
    {"cli", "__init__", "__main__"},
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
PURE = {"bt", "control", "perception", "sim", "tasks"}   # importable with no ROS installed
ROS_MODULES = {"rclpy", "rosidl_runtime_py", "robot_tasks_interfaces", "tf2_msgs", "control_msgs"}


def layer_of(path):
    first = path.relative_to(PACKAGE).parts[0]
    return first[:-3] if first.endswith(".py") else first


def imports(path):
    """(line, absolute module name) of every import in `path`."""
    module_parts = list(path.relative_to(REPO).with_suffix("").parts)
    if module_parts[-1] == "__init__":
        module_parts.pop()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module_parts[:len(module_parts) - node.level + (path.name == "__init__.py")]
                yield node.lineno, ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.lineno, node.module


def sources():
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_part_of_the_package_has_a_layer():
    assert {layer_of(path) for path in sources()} <= set(RANK), "add the new part to LAYERS"


def test_no_import_runs_up_the_layers():
    upward = []
    for path in sources():
        own = layer_of(path)
        for line, module in imports(path):
            parts = module.split(".")
            if parts[0] != "robot_tasks" or len(parts) < 2:
                continue
            if RANK[parts[1]] > RANK[own]:
                upward.append(f"{path.relative_to(REPO)}:{line}: {own} imports {module}")
    assert not upward, "\n".join(upward)


def test_the_pure_layers_import_no_ros():
    found = [f"{path.relative_to(REPO)}:{line}: {module}" for path in sources() if layer_of(path) in PURE
             for line, module in imports(path) if module.split(".")[0] in ROS_MODULES]
    assert not found, "\n".join(found)
