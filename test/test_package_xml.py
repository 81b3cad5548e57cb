"""`pip install` and `rosdep install` agree: package.xml names every dependency setup.py has.

Two ways to install robot_tasks' dependencies must give the same program: pip reads
setup.py's install_requires and extras; rosdep reads package.xml's *depend keys. package.xml
ties each key to its PyPI name with a `<!-- pip: name -->` comment on the key's line, and
lists the requirements with no rosdep key as `pip: name` lines in a comment. Checked here:

- every requirement of setup.py (install_requires, every extra but "bench", a profiler for
  developers) has its `pip:` name in package.xml, and every `pip:` name is one of them or
  installed by one (coal comes with pin);
- every third-party module robot_tasks imports belongs to such a requirement, or is a ROS
  package (a `ros-*` wheel here) declared by name in package.xml.
"""
from __future__ import annotations

import ast
import importlib.metadata as metadata
import importlib.util
import re
import sys
from pathlib import Path

from defusedxml import ElementTree
from paths import REPO

PIP_NAME = re.compile(r"pip: ([A-Za-z0-9][A-Za-z0-9._-]*)")
NOT_RUNTIME_EXTRAS = {"bench"}


def canonical(name: str) -> str:
    """PyPI's name normalisation (PEP 503): case and -_. runs do not matter."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return canonical(re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0])


def setup_requirements(setup_py: Path) -> set[str]:
    """install_requires + extras_require of setup.py's setup() call, read with ast."""
    for node in ast.walk(ast.parse(setup_py.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setup":
            keywords = {k.arg: ast.literal_eval(k.value) for k in node.keywords
                        if k.arg in ("install_requires", "extras_require")}
            names = {requirement_name(r) for r in keywords.get("install_requires", [])}
            for extra, requirements in keywords.get("extras_require", {}).items():
                if extra not in NOT_RUNTIME_EXTRAS:
                    names |= {requirement_name(r) for r in requirements}
            return names
    raise AssertionError("setup.py has no setup() call")


def pip_names(package_xml_text: str) -> set[str]:
    """Every `pip: name` of package.xml, keyed or in the no-key comments."""
    return {canonical(name) for name in PIP_NAME.findall(package_xml_text)}


def declared_keys(package_xml_text: str) -> set[str]:
    root = ElementTree.fromstring(package_xml_text.encode())
    return {el.text.strip() for el in root if el.tag.endswith("depend") and el.text}


def missing_from_package_xml(requirements: set[str], package_xml_text: str) -> set[str]:
    return requirements - pip_names(package_xml_text)


def third_party_imports(source: Path) -> set[str]:
    """Top-level names of every absolute import under `source`, minus stdlib and robot_tasks."""
    names = set()
    for path in source.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "robot_tasks"}


def undeclared_imports(imports: set[str], distributions: dict[str, list[str]],
                       package_xml_text: str) -> list[str]:
    """Imports that neither a `pip:` name nor (for ROS packages) a depend key covers."""
    keys, pips = declared_keys(package_xml_text), pip_names(package_xml_text)
    out = []
    for module in sorted(imports):
        dists = [canonical(d) for d in distributions.get(module, [])]
        if not dists:
            out.append(f"{module}: no installed distribution provides it")
        elif any(d.startswith("ros-") for d in dists):     # a ROS package: its key is its name
            if module not in keys:
                out.append(f"{module}: ROS package not in package.xml")
        elif not set(dists) & pips:
            out.append(f"{module} (pip: {', '.join(dists)}) not in package.xml")
    return out


def installed_distributions(imports: set[str]) -> dict[str, list[str]]:
    """Module -> the distributions that install it. packages_distributions() reads only the
    top level of site-packages; cmeel wheels (pin, coal) install under cmeel.prefix/, so
    those modules are looked up by their file in each distribution's file list."""
    found = {m: d for m, d in metadata.packages_distributions().items() if m in imports}
    origins = {}
    for module in imports - found.keys():
        spec = importlib.util.find_spec(module)
        if spec and spec.origin:
            origins[Path(spec.origin).resolve()] = module
    for dist in metadata.distributions() if origins else []:
        for file in dist.files or []:
            module = origins.get(Path(dist.locate_file(file)).resolve())
            if module:
                found.setdefault(module, []).append(dist.metadata["Name"])
    return found


PACKAGE_XML = (REPO / "package.xml").read_text()


def test_every_setup_py_requirement_is_in_package_xml():
    assert missing_from_package_xml(setup_requirements(REPO / "setup.py"), PACKAGE_XML) == set()


def test_every_pip_name_of_package_xml_is_a_requirement_or_comes_with_one():
    requirements = setup_requirements(REPO / "setup.py")
    brought = {requirement_name(r) for name in requirements for r in (metadata.requires(name) or [])}
    assert pip_names(PACKAGE_XML) - requirements - brought == set()


def test_every_third_party_import_of_robot_tasks_is_declared():
    imports = third_party_imports(REPO / "robot_tasks")
    assert {"pybullet", "pinocchio", "rclpy"} <= imports    # the scan sees the imports at all
    assert undeclared_imports(imports, installed_distributions(imports), PACKAGE_XML) == []


def test_a_package_xml_without_a_requirement_is_caught():
    broken = PACKAGE_XML.replace("<!-- pip: pybullet -->", "")
    assert missing_from_package_xml({"pybullet", "numpy"}, broken) == {"pybullet"}
    assert undeclared_imports({"pybullet", "numpy"}, {"pybullet": ["pybullet"], "numpy": ["numpy"]},
                              broken) == ["pybullet (pip: pybullet) not in package.xml"]


def test_a_ros_import_without_its_key_is_caught():
    broken = PACKAGE_XML.replace("<exec_depend>ur_msgs</exec_depend>", "")
    assert undeclared_imports({"ur_msgs"}, {"ur_msgs": ["ros-ur-msgs"]}, broken) == [
        "ur_msgs: ROS package not in package.xml"]


def test_every_key_is_declared_once():
    root = ElementTree.fromstring(PACKAGE_XML.encode())
    keys = [el.text.strip() for el in root if el.tag.endswith("depend")]
    assert sorted(k for k in set(keys) if keys.count(k) > 1) == []
