"""`python -m robot_tasks.nodes.tree_executor`: see main.py."""
import sys

from robot_tasks.nodes.tree_executor.main import main

sys.exit(main())
