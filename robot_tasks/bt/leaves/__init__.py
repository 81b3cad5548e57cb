"""Built-in leaf nodes, one per file (BT.CPP `include/behaviortree_cpp/actions`)."""
