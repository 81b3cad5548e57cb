"""Keep DDS traffic on loopback: the one place that sets the ROS 2 network environment.

Every process of this project that calls ``rclpy.init()`` calls
:func:`configure_loopback_dds` first (entry points, nodes, CLI commands, test
fixtures). It sets, in ``os.environ``:

``FASTDDS_DEFAULT_PROFILES_FILE=<config>/fastdds_localhost.xml``
    a Fast DDS profile that uses only UDPv4 on 127.0.0.1 and shared memory, with
    no multicast, and announces every 0.5 s so discovery takes ~0.1 s, not ~3 s.
    Without multicast, participants find each other only by announcing to the
    initial peer 127.0.0.1, i.e. to the discovery ports of participant indices
    0..maxInitialPeersRange-1 of the domain; the profile raises that range from
    Fast DDS's default 4 to :data:`MIN_INITIAL_PEERS_RANGE` or more, else two
    processes that both got an index >= 4 never meet (see the profile's comments
    and test/ros/test_discovery_many.py).
``SKIP_DEFAULT_XML_FILE=1``
    Fast DDS also loads ``DEFAULT_FASTDDS_PROFILES.xml`` from the working directory,
    after the file above, and a default participant profile there wins (measured on
    Fast DDS 3.2.2). This stops a stray file from replacing the loopback profile.
``ROS_AUTOMATIC_DISCOVERY_RANGE=SYSTEM_DEFAULT``
    so that the profile alone decides the locators. Measured on Kilted (rmw_fastrtps
    9.3.3): with ``LOCALHOST`` here, rmw appends a wildcard unicast locator to the
    profile's, and every participant then binds one UDP socket to 0.0.0.0 and one to
    the host's LAN address; with ``SYSTEM_DEFAULT`` (or ``SUBNET``) + the profile,
    every socket is bound to 127.0.0.1 (see test/ros/test_loopback_sockets.py).
    Because the profile is then the only guard, it is checked before use
    (:func:`check_profile`): a missing or edited profile raises instead of
    silently falling back to Fast DDS's multicast defaults.
``ROS_DOMAIN_ID`` (only when a domain id is passed)
    so parallel test runs do not meet; an id already in the environment is kept.
    :func:`robot_tasks.ros.domains.pick_free_domain_id` chooses one whose UDP ports
    nobody on this machine has bound yet.
``ROS_LOG_DIR`` (only when a log dir is passed)

``ROS_LOCALHOST_ONLY`` is removed if present: Kilted ignores it, and it only confuses.

Loopback is a default, not a cage: a real robot's driver may run on another computer.
A deployment opts out explicitly with ``ROBOT_TASKS_DDS=system``; then the user-facing
entry points (every node's main, the CLI clients, ``robot-tasks bringup``) call
:func:`configure_dds`, which leaves the user's own ROS/DDS configuration untouched (their
``ROS_DOMAIN_ID``, ``ROS_AUTOMATIC_DISCOVERY_RANGE``, Fast DDS/Cyclone profiles). Any other
value, or none, means the loopback profile. Tests, benches and the demos call
:func:`configure_loopback_dds`, which ignores the opt-out and removes it from the
environment, so that nothing they start inherits it.
The variables are read when the DDS participant is created, i.e. by
``rclpy.init()``/the first node, so setting them afterwards has no effect.

This module imports nothing from ROS, so it can run before rclpy is loaded.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from robot_tasks.ros.errors import RosError

PROFILE_NAME = "fastdds_localhost.xml"
# The deployment opt-out: ROBOT_TASKS_DDS=system keeps the user's own DDS configuration.
OPT_OUT_VARIABLE = "ROBOT_TASKS_DDS"
OPT_OUT_VALUE = "system"
# Kilted ignores this one (packets still leave the host); we remove it so nobody relies on it.
IGNORED_VARIABLE = "ROS_LOCALHOST_ONLY"
PACKAGE = "robot_tasks"

# The profile's UDP transport must probe at least this many participant indices
# per initial peer (Fast DDS default: 4). 32 = rmw's limit on ROS_STATIC_PEERS, and
# far above the ~6-10 processes the demo and the tests run in one domain.
MIN_INITIAL_PEERS_RANGE = 32

# RTPS well-known ports (RTPS 2.x spec, 9.6.1.1, Fast DDS defaults): every port of
# domain d lies in [PORT_BASE + DOMAIN_GAIN*d, PORT_BASE + DOMAIN_GAIN*(d+1)).
# Discovery (metatraffic unicast) of participant index p: PORT_BASE + DOMAIN_GAIN*d + 10 + 2*p;
# user data unicast: ... + 11 + 2*p; the multicast ports (+0, +1) are unused here.
PORT_BASE = 7400
DOMAIN_GAIN = 250


class LoopbackConfigError(RosError):
    """The loopback DDS profile cannot be found or a setting is invalid."""


def _profile_candidates() -> list[Path]:
    """Places the profile can be, most specific first.

    - source tree / editable install: ``<repo>/config/`` next to the package folder;
    - installed with pip or colcon: ``<prefix>/share/robot_tasks/config/``, where
      the package lives in ``<prefix>/lib/pythonX.Y/site-packages/robot_tasks``;
    - ``sys.prefix`` and every ``AMENT_PREFIX_PATH`` entry, for unusual layouts.
    """
    package_dir = Path(__file__).resolve().parent.parent  # .../robot_tasks
    share = Path("share") / PACKAGE / "config" / PROFILE_NAME
    candidates = [package_dir.parent / "config" / PROFILE_NAME]
    if len(package_dir.parents) >= 4:
        candidates.append(package_dir.parents[3] / share)
    candidates.append(Path(sys.prefix) / share)
    for prefix in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if prefix:
            candidates.append(Path(prefix) / share)
    return candidates


def find_profile_file() -> Path:
    """Return the absolute path of the shipped ``fastdds_localhost.xml``.

    Raises LoopbackConfigError listing every place that was looked at.
    """
    candidates = _profile_candidates()
    for path in candidates:
        if path.is_file():
            return path
    looked = "\n  ".join(str(p) for p in candidates)
    raise LoopbackConfigError(f"cannot find the DDS profile {PROFILE_NAME}; looked in:\n  {looked}")


_NS = "{http://www.eprosima.com}"


def check_profile(path: str | os.PathLike) -> None:
    """Raise LoopbackConfigError unless `path` is a loopback-only Fast DDS profile.

    Checked: it parses; its default participant profile disables the builtin
    transports; every UDP transport it uses is white-listed to 127.0.0.1 only
    and probes at least MIN_INITIAL_PEERS_RANGE participant indices per initial
    peer; and every locator it lists is 127.0.0.1. This is what keeps traffic off
    the network (and every process of a domain in touch with every other), so an
    edit that breaks it must fail loudly, not fall back to multicast.
    """
    from defusedxml import ElementTree  # only here: keeps `import dds` dependency-free

    path = Path(path)
    where = f"DDS profile {path}"
    try:
        root = ElementTree.parse(path).getroot()
    except Exception as exc:  # ParseError, OSError, defusedxml's forbidden constructs
        raise LoopbackConfigError(f"{where}: cannot parse: {exc}") from exc

    def strip(tag: str) -> str:
        return tag.replace(_NS, "")

    participants = [e for e in root.iter() if strip(e.tag) == "participant"
                    and e.get("is_default_profile") == "true"]
    if len(participants) != 1:
        raise LoopbackConfigError(f"{where}: needs exactly one participant with is_default_profile=\"true\"")
    participant = participants[0]
    builtin = [e.text.strip() for e in participant.iter() if strip(e.tag) == "useBuiltinTransports"]
    if builtin != ["false"]:
        raise LoopbackConfigError(f"{where}: <useBuiltinTransports> must be false")
    used = {e.text.strip() for e in participant.iter()
            if strip(e.tag) == "transport_id" and e.text}
    for desc in root.iter():
        if strip(desc.tag) != "transport_descriptor":
            continue
        fields = {strip(c.tag): c for c in desc}
        tid = (fields["transport_id"].text or "").strip() if "transport_id" in fields else ""
        kind = (fields["type"].text or "").strip() if "type" in fields else ""
        if tid not in used or kind == "SHM":
            continue
        allowed = [(a.text or "").strip() for a in desc.iter() if strip(a.tag) == "address"]
        if kind != "UDPv4" or not allowed or any(a != "127.0.0.1" for a in allowed):
            raise LoopbackConfigError(
                f"{where}: transport '{tid}' must be UDPv4 white-listed to 127.0.0.1 only")
        peers_range = (fields["maxInitialPeersRange"].text or "").strip() \
            if "maxInitialPeersRange" in fields else ""
        if not peers_range.isdigit() or int(peers_range) < MIN_INITIAL_PEERS_RANGE:
            raise LoopbackConfigError(
                f"{where}: transport '{tid}' needs <maxInitialPeersRange> >= "
                f"{MIN_INITIAL_PEERS_RANGE} (got {peers_range or 'none, i.e. 4'}): with unicast "
                f"discovery, participants beyond that index never discover each other")
    for addr in participant.iter():
        if strip(addr.tag) == "address" and (addr.text or "").strip() != "127.0.0.1":
            raise LoopbackConfigError(f"{where}: locator address {addr.text!r} is not 127.0.0.1")


def loopback_dds_settings(
    domain_id: int | None = None,
    log_dir: str | os.PathLike | None = None,
    profile_file: str | os.PathLike | None = None,
) -> dict[str, str]:
    """Return the environment variables that confine DDS to loopback (no side effects).

    Use this to build the environment of a subprocess; use
    :func:`configure_loopback_dds` for the current process.
    """
    if domain_id is not None:
        if isinstance(domain_id, bool) or not isinstance(domain_id, int) or not 0 <= domain_id <= 232:
            raise LoopbackConfigError(f"ROS_DOMAIN_ID must be an int in 0..232, got {domain_id!r}")
    profile = Path(profile_file).resolve() if profile_file else find_profile_file()
    if not profile.is_file():
        raise LoopbackConfigError(f"DDS profile file not found: {profile}")
    check_profile(profile)
    settings = {
        "ROS_AUTOMATIC_DISCOVERY_RANGE": "SYSTEM_DEFAULT",
        "FASTDDS_DEFAULT_PROFILES_FILE": str(profile),
        "SKIP_DEFAULT_XML_FILE": "1",
    }
    if domain_id is not None:
        settings["ROS_DOMAIN_ID"] = str(domain_id)
    if log_dir is not None:
        settings["ROS_LOG_DIR"] = str(Path(log_dir).resolve())
    return settings


def configure_loopback_dds(
    domain_id: int | None = None,
    log_dir: str | os.PathLike | None = None,
    profile_file: str | os.PathLike | None = None,
) -> dict[str, str]:
    """Set the loopback DDS environment in ``os.environ``; call before ``rclpy.init()``.

    Args:
        domain_id: ROS_DOMAIN_ID to use. None keeps the one already in the
            environment (or the ROS default 0 when there is none).
        log_dir: directory for ROS log files (ROS_LOG_DIR); created if missing.
        profile_file: another Fast DDS profile (default: the shipped loopback one).

    Returns the variables it set, name -> value.

    Example::

        from robot_tasks.ros.dds import configure_loopback_dds
        configure_loopback_dds()
        import rclpy
        rclpy.init()
    """
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
    settings = loopback_dds_settings(domain_id, log_dir, profile_file)
    os.environ.pop(OPT_OUT_VARIABLE, None)  # forced loopback: nothing started from here opts out
    if "rclpy" in sys.modules and _rclpy_context_ok():
        # Not fatal (a later participant in a new context still reads the env),
        # but worth knowing: the already running one keeps its old settings.
        print("robot_tasks.ros.dds: configure_loopback_dds() called after rclpy.init(); "
              "the running context keeps its old DDS settings", file=sys.stderr)
    os.environ.update(settings)
    os.environ.pop(IGNORED_VARIABLE, None)
    return settings


def loopback_environment(settings: dict[str, str], base: dict[str, str] | None = None) -> dict[str, str]:
    """A child process's environment: ``base`` (default os.environ) + ``settings``
    (from :func:`loopback_dds_settings`), without the variable Kilted ignores and without
    the deployment opt-out (a loopback child never opts out)."""
    env = dict(os.environ if base is None else base)
    env.update(settings)
    env.pop(IGNORED_VARIABLE, None)
    env.pop(OPT_OUT_VARIABLE, None)
    return env


def opted_out(environ: dict[str, str] | None = None) -> bool:
    """True when the deployment asked to keep its own DDS configuration (ROBOT_TASKS_DDS=system)."""
    return (os.environ if environ is None else environ).get(OPT_OUT_VARIABLE, "").strip() == OPT_OUT_VALUE


def deployment_dds_settings(domain_id: int | None = None) -> dict[str, str] | None:
    """What a user-facing entry point applies: the loopback settings, or None when the
    deployment opted out (then only an explicit `domain_id` is set)."""
    if opted_out():
        return None
    return loopback_dds_settings(domain_id)


def configure_dds(domain_id: int | None = None) -> dict[str, str]:
    """The DDS set-up of a user-facing entry point (node main, CLI client); call before
    ``rclpy.init()``. Loopback, unless ROBOT_TASKS_DDS=system: then the environment is left
    as the user set it (said once on stderr) and an empty dict is returned."""
    if not opted_out():
        return configure_loopback_dds(domain_id)
    if domain_id is not None:
        os.environ["ROS_DOMAIN_ID"] = str(domain_id)
    global _OPT_OUT_SAID
    if not _OPT_OUT_SAID:
        _OPT_OUT_SAID = True
        print(f"robot_tasks: {OPT_OUT_VARIABLE}={OPT_OUT_VALUE}: using this machine's own ROS/DDS "
              f"configuration, not the loopback profile", file=sys.stderr)
    return {}


_OPT_OUT_SAID = False


def _rclpy_context_ok() -> bool:
    try:
        import rclpy  # already imported: cheap

        return bool(rclpy.ok())
    except Exception:  # rclpy half-initialised or broken: nothing to warn about
        return False
