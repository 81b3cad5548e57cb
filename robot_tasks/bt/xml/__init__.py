"""BT.CPP v4 XML: safe parsing with line numbers, tree building and validation, writers."""
