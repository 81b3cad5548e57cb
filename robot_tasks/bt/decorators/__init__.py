"""Built-in decorator nodes, one per file (BT.CPP `src/decorators`)."""
