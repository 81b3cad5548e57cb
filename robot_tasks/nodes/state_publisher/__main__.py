"""`python -m robot_tasks.nodes.state_publisher`: see main.py."""
import sys

from robot_tasks.nodes.state_publisher.main import main

sys.exit(main())
