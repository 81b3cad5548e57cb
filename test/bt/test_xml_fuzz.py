"""Mutated tree files and scripts get the project's own errors, never a crash, a hang or a
RecursionError (test/support/mutate.py; bench/faults.py runs the same with more inputs)."""
import pytest
from mutate import load_and_build_every_tree, parse_and_run_script, run_fuzz, script_inputs, xml_inputs

pytestmark = pytest.mark.timeout(300)


def test_mutated_tree_files_only_raise_project_errors():
    report = run_fuzz(xml_inputs(1500, seed=11), load_and_build_every_tree)
    assert report.ok, report.failures[:5]
    assert report.refused > 100 and report.accepted > 40, (report.refused, report.accepted)  # both paths


def test_mutated_scripts_only_raise_project_errors():
    report = run_fuzz(script_inputs(2000, seed=12), parse_and_run_script)
    assert report.ok, report.failures[:5]
    assert report.refused > 100 and report.accepted > 40, (report.refused, report.accepted)
