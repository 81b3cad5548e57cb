"""catalog_for: a scene's subset of the perception catalogue."""
from __future__ import annotations

import pytest

from robot_tasks.perception import DEFAULT_CATALOG, Detector
from robot_tasks.perception.catalog import catalog_for


def test_the_subset_keeps_catalogue_order_and_empty_means_everything():
    assert [s.label for s in catalog_for(["bin", "red_cube"])] == ["red_cube", "bin"]
    assert catalog_for([]) == DEFAULT_CATALOG


def test_an_unknown_label_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match=r"'unicorn'.*knows: red_cube, blue_cube"):
        catalog_for(["red_cube", "unicorn"])


def test_a_detector_of_the_subset_segments_only_its_colours():
    detector = Detector(catalog_for(["bin"]))
    assert [c.name for c in detector._by_color] == ["blue"]
