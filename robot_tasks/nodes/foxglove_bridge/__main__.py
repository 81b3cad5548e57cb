"""`python -m robot_tasks.nodes.foxglove_bridge`: see main.py."""
import sys

from robot_tasks.nodes.foxglove_bridge.main import main

sys.exit(main())
