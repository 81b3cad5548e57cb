"""Build the checkout as a ROS 2 user would, with colcon, and check what it installs.

    .venv/bin/python tools/colcon_check.py [WORKSPACE]     (make colcon-check)

A ROS 2 user clones the repo into a workspace's `src/` and runs `colcon build`. This does
the same in a throw-away WORKSPACE (default build/colcon_ws, emptied first):

1. copy the checkout's files (git's tracked + untracked-not-ignored, so no .venv, no build
   folders) to WORKSPACE/src/robot_tasks;
2. `colcon build --base-paths src/robot_tasks src/robot_tasks/robot_tasks_interfaces`:
   colcon does not look for a package inside another package's folder, so the nested
   ament_cmake interface package is named as a base path of its own. colcon, ament_cmake and
   the rosidl generators come from PyPI into the venv (`make setup`, requirements/colcon.txt);
   colcon builds against the venv, so the venv's bin/ goes first on PATH;
3. check the install tree (tools/install_layout.py) and that the installed `robot-tasks`
   script runs with `install/setup.bash` sourced and imports the installed copies.

Nothing here starts ROS; the children still get the loopback DDS settings, as every
process of this project does.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from install_layout import problems  # noqa: E402  (a sibling script, not a package)

from robot_tasks.ros.dds import loopback_dds_settings, loopback_environment  # noqa: E402
from robot_tasks.ros.domains import pick_free_domain_id  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SOURCE = Path("src/robot_tasks")
# Variables of another workspace that would leak its packages into this build.
FOREIGN_WORKSPACE = ("AMENT_PREFIX_PATH", "COLCON_PREFIX_PATH", "CMAKE_PREFIX_PATH", "PYTHONPATH")


def copy_checkout(repo: Path, destination: Path) -> int:
    """Copy the files git sees (tracked and untracked, minus ignored) that exist on disk."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=repo, check=True, capture_output=True).stdout.decode().split("\0")
    files = sorted({name for name in listed if name and (repo / name).is_file()})
    for name in files:
        (destination / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, destination / name)
    return len(files)


def build_environment(workspace: Path) -> dict[str, str]:
    """The venv first on PATH, no other workspace, colcon's user defaults kept out."""
    env = loopback_environment(loopback_dds_settings(domain_id=pick_free_domain_id(),
                                                     log_dir=workspace / "ros_log"))
    for name in FOREIGN_WORKSPACE:
        env.pop(name, None)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["COLCON_HOME"] = str(workspace / ".colcon")   # no ~/.colcon/defaults.yaml
    return env


def colcon_build(workspace: Path, env: dict[str, str]) -> float:
    """Run colcon build; return its wall time in seconds. Raises on a failed build."""
    command = [str(Path(sys.executable).parent / "colcon"), "build",
               "--base-paths", str(SOURCE), str(SOURCE / "robot_tasks_interfaces"),
               "--parallel-workers", "1",                          # robot_tasks waits for the interfaces anyway
               "--event-handlers", "desktop_notification-"]       # a headless build: no desktop pop-up
    start = time.monotonic()
    subprocess.run(command, cwd=workspace, env=env, check=True)
    return time.monotonic() - start


def smoke_problems(workspace: Path, env: dict[str, str]) -> list[str]:
    """Source install/setup.bash, run lib/robot_tasks/robot-tasks, and check that Python
    imports robot_tasks and its interfaces from the install tree, not from the venv."""
    script = ("source install/setup.bash && install/robot_tasks/lib/robot_tasks/robot-tasks --version"
              " && python -c 'import robot_tasks, robot_tasks_interfaces.action as a; "
              "print(robot_tasks.__file__); print(a.__file__)'")
    run = subprocess.run(["bash", "-c", script], cwd=workspace, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        return [f"sourcing install/setup.bash and running robot-tasks failed: {run.stderr.strip()}"]
    install = str((workspace / "install").resolve())
    return [f"imported from outside the install tree: {line}"
            for line in run.stdout.splitlines()[1:] if not line.startswith(install)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workspace", nargs="?", type=Path, default=REPO / "build" / "colcon_ws",
                        help="throw-away workspace (emptied first; default build/colcon_ws)")
    workspace = parser.parse_args(argv).workspace.resolve()
    if workspace == REPO or REPO.is_relative_to(workspace):
        parser.error(f"{workspace} holds the checkout; give a throw-away folder")
    shutil.rmtree(workspace, ignore_errors=True)
    count = copy_checkout(REPO, workspace / SOURCE)
    print(f"colcon-check: {count} files copied to {workspace / SOURCE}", flush=True)
    env = build_environment(workspace)
    seconds = colcon_build(workspace, env)
    print(f"colcon-check: colcon build took {seconds:.0f} s", flush=True)
    found = problems(workspace / "install", workspace / SOURCE) + smoke_problems(workspace, env)
    for problem in found:
        print(f"colcon-check: {problem}", file=sys.stderr)
    print(f"colcon-check: {'FAILED, ' + str(len(found)) + ' problem(s)' if found else 'install layout OK'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
