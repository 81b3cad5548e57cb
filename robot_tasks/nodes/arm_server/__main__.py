"""`python -m robot_tasks.nodes.arm_server`: see main.py."""
import sys

from robot_tasks.nodes.arm_server.main import main

sys.exit(main())
