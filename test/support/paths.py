"""Where things are, for tests: the repository, this support folder and the test trees.

`test/support` is on pytest's pythonpath (pytest.ini), so any test imports these as
`from paths import REPO, SUPPORT`; stand-in node scripts here are started by path.
"""
from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
REPO = SUPPORT.parents[1]
TEST_TREES = SUPPORT / "trees"            # trees the tree_executor tests run
PLUGIN_TREES = SUPPORT / "plugin_trees"   # a tree using tree_test_plugin's leaf
