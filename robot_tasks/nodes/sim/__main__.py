"""`python -m robot_tasks.nodes.sim`: see main.py."""
import sys

from robot_tasks.nodes.sim.main import main

sys.exit(main())
