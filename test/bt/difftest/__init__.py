"""Differential testing of robot_tasks.bt against BT.CPP (behaviortreepy 0.1.4 = BT.CPP 4.8.2).

generator.py draws seeded random trees, leaves.py scripts and records the leaves,
engines.py adapts both engines, runner.py runs and compares traces, cli.py runs many.
"""
