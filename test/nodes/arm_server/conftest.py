"""Module-scoped ROS fixtures: one domain, one set of node processes, one probe node per
test module, so a module starts its (slow) sim only once (see test/support/module_scoped.py);
``probe`` comes from test/conftest.py: an in-test rclpy node spun in a thread."""
from module_scoped import launcher, ros_env  # noqa: F401
