"""Benchmark (issue 6): Franka stacking success rate per disturbance mode.

Runs N seeded episodes (default 20) undisturbed and with each disturbance (drag, drop,
knock), each a full `robot-tasks demo franka_stacking` run with real processes over
loopback DDS, one after the other, and prints success rate and median sim/wall time per
mode. Targets: >= 95 % undisturbed, >= 90 % per disturbance mode.

    .venv/bin/python bench/stacking_success.py [--seeds 20] [--modes none,drag] [--out runs/bench]

At real-time factor 1 an episode takes ~30-60 s of wall time, so the default run is
about an hour on 2 cores; every episode's run folder is kept under --out.

    .venv/bin/python bench/stacking_success.py --two-hosts --seeds 5 --modes none,drag   # root only

runs each episode split over two network namespaces instead (robot_tasks.testing.two_host_episodes).
"""
import sys

if __name__ == "__main__":
    if "--two-hosts" in sys.argv[1:]:
        from robot_tasks.testing.two_host_episodes import main
    else:
        from robot_tasks.demo.episodes import main
    sys.exit(main())
