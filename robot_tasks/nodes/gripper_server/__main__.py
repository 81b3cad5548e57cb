"""`python -m robot_tasks.nodes.gripper_server`: see main.py."""
import sys

from robot_tasks.nodes.gripper_server.main import main

sys.exit(main())
