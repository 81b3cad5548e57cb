"""`python -m robot_tasks.nodes.compliance_server`: see main.py."""
import sys

from robot_tasks.nodes.compliance_server.main import main

sys.exit(main())
