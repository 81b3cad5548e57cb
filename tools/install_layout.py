"""Is a colcon install tree of robot_tasks what `ros2 launch` / `ros2 run` need?

A pip install of robot_tasks is a Python package, not a ROS package: its console scripts
land in `.venv/bin` and nothing registers it in the ament index. The ROS tools find a
package differently, and colcon's install tree (isolated layout, one prefix per package:
`install/<pkg>/`) is what they look at:

- `ament_index`: a package exists for ROS when its prefix holds the empty marker file
  `share/ament_index/resource_index/packages/<pkg>`; `$(find-pkg-share <pkg>)` is then
  `<prefix>/share/<pkg>`.
- `ros2 run <pkg> <exec>` and launch's `<node pkg=… exec=…>` run `<prefix>/lib/<pkg>/<exec>`
  (setup.cfg's `install_scripts=$base/lib/robot_tasks` puts the console scripts there).
- launch files, params files and trees are read from `<prefix>/share/<pkg>/…`.

`problems(install, source)` walks that tree and names every path a ROS user would miss; an
empty list means the layout is complete. A package a launch file names that is not in the
workspace (robot_state_publisher, tf2_ros) cannot resolve here: it must be a dependency in
package.xml, so that rosdep installs it.
"""
from __future__ import annotations

import configparser
import os
import re
from pathlib import Path

from defusedxml import ElementTree

PACKAGE = "robot_tasks"
INDEX = Path("share/ament_index/resource_index/packages")
SHARED_FOLDERS = ("launch", "config", "trees")   # setup.py's data_files, copied as they are
FIND_PKG_SHARE = re.compile(r"\$\(find-pkg-share (\w+)\)([^\s\"'$]*)")


def find_prefix(install: Path, package: str) -> Path | None:
    """The prefix whose ament index registers `package` (what AMENT_PREFIX_PATH search does)."""
    for prefix in sorted(p for p in install.iterdir() if p.is_dir()):
        if (prefix / INDEX / package).is_file():
            return prefix
    return None


def declared_dependencies(package_xml: Path) -> set[str]:
    """Every package/key named in a *depend element of package.xml."""
    root = ElementTree.parse(package_xml).getroot()
    return {el.text.strip() for el in root if el.tag.endswith("depend") and el.text}


def console_scripts(prefix: Path) -> list[str]:
    """The console scripts setup.py declared, read from the installed egg-info."""
    found = sorted(prefix.glob(f"lib/python3*/site-packages/{PACKAGE}-*.egg-info/entry_points.txt"))
    if not found:
        return []
    entry_points = configparser.ConfigParser(delimiters=("=",))
    entry_points.optionxform = str   # keep names as written
    entry_points.read(found[0])
    return sorted(entry_points["console_scripts"]) if entry_points.has_section("console_scripts") else []


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def layout_problems(prefix: Path, source: Path) -> list[str]:
    """robot_tasks' own prefix: index marker, package.xml, share folders, lib/ executables."""
    out = []
    if not (prefix / INDEX / PACKAGE).is_file():
        out.append(f"missing ament index entry {prefix / INDEX / PACKAGE}")
    if not (prefix / "share" / PACKAGE / "package.xml").is_file():
        out.append(f"missing {prefix / 'share' / PACKAGE / 'package.xml'}")
    for folder in SHARED_FOLDERS:
        for file in sorted((source / folder).rglob("*")):
            installed = prefix / "share" / PACKAGE / file.relative_to(source)
            if file.is_file() and not installed.is_file():
                out.append(f"missing {installed} (from {file.relative_to(source)})")
    scripts = console_scripts(prefix)
    if not scripts:
        out.append(f"no console_scripts in {prefix}/lib/python3*/site-packages/{PACKAGE}-*.egg-info")
    for script in scripts:
        if not _executable(prefix / "lib" / PACKAGE / script):
            out.append(f"missing executable {prefix / 'lib' / PACKAGE / script} (entry point {script})")
    return out


def launch_problems(install: Path, launch_file: Path, external: set[str]) -> list[str]:
    """Every <node pkg exec> and $(find-pkg-share pkg)/path of one installed launch file
    resolves in the workspace, or names a package declared in package.xml (`external`)."""
    out = []
    where = launch_file.name
    for element in ElementTree.parse(launch_file).getroot().iter():
        package, executable = element.get("pkg"), element.get("exec")
        if package and executable:
            prefix = find_prefix(install, package)
            if prefix is not None and not _executable(prefix / "lib" / package / executable):
                out.append(f"{where}: exec {executable} of {package}: missing executable "
                           f"{prefix / 'lib' / package / executable}")
            elif prefix is None and package not in external:
                out.append(f"{where}: pkg {package} is neither in the workspace nor in package.xml")
        for value in element.attrib.values():
            for package, rest in FIND_PKG_SHARE.findall(value):
                prefix = find_prefix(install, package)
                if prefix is None:
                    if package not in external:
                        out.append(f"{where}: $(find-pkg-share {package}) is neither in the "
                                   f"workspace nor in package.xml")
                elif not (prefix / "share" / package / rest.lstrip("/")).exists():
                    out.append(f"{where}: $(find-pkg-share {package}){rest}: missing "
                               f"{prefix / 'share' / package / rest.lstrip('/')}")
    return out


def problems(install: Path, source: Path) -> list[str]:
    """Everything missing from colcon's `install` folder for the checkout at `source`."""
    install, source = Path(install), Path(source)
    prefix = find_prefix(install, PACKAGE)
    if prefix is None:
        return [f"no prefix under {install} registers {PACKAGE} "
                f"(missing {install / PACKAGE / INDEX / PACKAGE})"]
    out = layout_problems(prefix, source)
    external = declared_dependencies(source / "package.xml")
    launch_files = sorted((prefix / "share" / PACKAGE / "launch").glob("*.launch.xml"))
    if not launch_files:
        out.append(f"no launch files in {prefix / 'share' / PACKAGE / 'launch'}")
    for launch_file in launch_files:
        out += launch_problems(install, launch_file, external)
    return out
