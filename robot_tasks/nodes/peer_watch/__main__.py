"""`python -m robot_tasks.nodes.peer_watch`: see main.py."""
import sys

from robot_tasks.nodes.peer_watch.main import main

sys.exit(main())
