"""`python -m robot_tasks.nodes.perception_server`: see main.py."""
import sys

from robot_tasks.nodes.perception_server.main import main

sys.exit(main())
