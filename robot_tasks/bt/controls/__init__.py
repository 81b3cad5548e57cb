"""Built-in control nodes, one per file (BT.CPP `src/controls`)."""
