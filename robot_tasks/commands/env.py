"""`robot-tasks env`: the exports that let your own terminal's ROS 2 tools see the nodes.

The project's nodes keep DDS on loopback (robot_tasks.ros.dds): Fast DDS reads the
project's profile (UDP on 127.0.0.1 and shared memory, no multicast), and discovery finds
only participants that use the same profile and the same ROS_DOMAIN_ID. A terminal with a
stock ROS 2 set-up multicasts on the LAN instead, so its `ros2 topic list` shows nothing.
Run this in the terminal where you will use the ROS 2 tools:

    eval "$(robot-tasks env)"                  # or paste the lines it prints
    eval "$(robot-tasks env --domain-id 17)"   # a bringup started with --domain-id 17
    ros2 daemon stop && ros2 topic list        # a daemon started before keeps its settings

The domain cannot be read from a running bringup: it is `--domain-id`, else the
ROS_DOMAIN_ID of this shell (what a bringup started from a shell like it uses), else 0 (a
bringup's default). A bringup prints its domain in its first line; the domains that have
DDS participants on this machine right now are listed as a hint. With
ROBOT_TASKS_DDS=system the nodes use this machine's own DDS configuration: the exports are
then this shell's own settings, for a terminal that lacks them.

Output is POSIX shell (bash, zsh, sh); comments say where each value comes from.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys

RMW = "rmw_fastrtps_cpp"   # the loopback profile is a Fast DDS profile
# Higher domains' ports overlap Linux's ephemeral range: any UDP socket would look like one.
MAX_HINT_DOMAIN = 101
# What decides whom a process meets under the deployment opt-out (ROBOT_TASKS_DDS=system).
SYSTEM_VARIABLES = ("RMW_IMPLEMENTATION", "ROS_DOMAIN_ID", "ROS_AUTOMATIC_DISCOVERY_RANGE",
                    "ROS_STATIC_PEERS", "FASTDDS_DEFAULT_PROFILES_FILE", "CYCLONEDDS_URI")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "env", help="print the exports that let your terminal's ros2 tools see the nodes",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--domain-id", type=int, default=None,
                        help="the bringup's ROS_DOMAIN_ID (default: this shell's, else 0)")
    parser.set_defaults(func=run)


def run(args) -> int:
    from robot_tasks.ros.dds import LoopbackConfigError

    try:
        lines = exports(args.domain_id, dict(os.environ))
    except LoopbackConfigError as exc:
        print(f"robot-tasks env: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def exports(domain_id: int | None, environ: dict[str, str]) -> list[str]:
    """The lines `robot-tasks env` prints for `domain_id` (None: from `environ`)."""
    from robot_tasks.ros.dds import IGNORED_VARIABLE, OPT_OUT_VARIABLE, loopback_dds_settings, opted_out

    domain, source = _domain(domain_id, environ)
    if opted_out(environ):
        lines = [f"# {OPT_OUT_VARIABLE}=system: the nodes use this machine's own ROS 2 / DDS settings;",
                 "# these are this shell's (a terminal with the same ones sees the nodes):"]
        lines += [_export(name, environ[name]) for name in SYSTEM_VARIABLES
                  if name in environ and name != "ROS_DOMAIN_ID"]
        return lines + [_export("ROS_DOMAIN_ID", domain), f"# ROS_DOMAIN_ID: {source}"]
    settings = loopback_dds_settings(domain)   # checks the domain id and the profile
    lines = ["# robot_tasks' nodes: DDS on loopback only (Fast DDS profile, 127.0.0.1 + shared memory).",
             '# In the terminal of your ROS 2 tools: eval "$(robot-tasks env)", or paste these lines;',
             "# then restart the ros2 daemon (ros2 daemon stop), which keeps the settings it started with.",
             _export("RMW_IMPLEMENTATION", RMW)]
    lines += [_export(name, value) for name, value in settings.items()]
    lines += [f"unset {IGNORED_VARIABLE}            # ignored since Kilted; only confuses",
              f"unset {OPT_OUT_VARIABLE}",
              f"# ROS_DOMAIN_ID: {source}.",
              "# A running bringup's domain cannot be read from here: its first line says it."]
    in_use = _domains_in_use()
    if in_use is not None:
        lines.append(f"# domains 0..{MAX_HINT_DOMAIN} with DDS participants on this machine now: {in_use or 'none'}")
    return lines


def _domain(domain_id: int | None, environ: dict[str, str]) -> tuple[int, str]:
    """The domain id to export and where it comes from."""
    if domain_id is not None:
        return domain_id, "as given (--domain-id)"
    text = environ.get("ROS_DOMAIN_ID", "").strip()
    if text:
        if not text.isdigit():
            from robot_tasks.ros.dds import LoopbackConfigError

            raise LoopbackConfigError(f"ROS_DOMAIN_ID must be an int in 0..232, got {text!r}")
        return int(text), "this shell's, as a bringup started from it would use"
    return 0, "0, a bringup's default without --domain-id or ROS_DOMAIN_ID"


def _domains_in_use() -> str | None:
    from robot_tasks.ros.domains import domains_in_use

    try:
        return ", ".join(str(d) for d in sorted(domains_in_use()) if d <= MAX_HINT_DOMAIN)
    except OSError:   # no /proc/net: nothing to hint at
        return None


def _export(name: str, value) -> str:
    return f"export {name}={shlex.quote(str(value))}"
