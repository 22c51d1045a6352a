"""Bookkeeping formulas stated once for one configuration and for the batch path's arrays alike:
hot spares (models.capacity), shelves, rack units, power and cost (models.bill), nodes
(models.cluster), the back-end bus (models.controller)."""

from __future__ import annotations

import math

import numpy as np

from models.bill import enclosure_cost_usd, enclosure_power_w, enclosure_rack_units, shelves_needed
from models.capacity import hot_spares, spare_count
from models.cluster import nodes_for_drives
from models.configuration import SparePolicy
from models.controller import backend_bus_pct


def test_hot_spares_are_one_per_28_drives_with_at_least_two() -> None:
    # max(2, ceil(48 / 28)) = max(2, 2) = 2; ceil(100 / 28) = ceil(3.57) = 4; ceil(28 / 28) = 1 -> 2
    assert spare_count(48, SparePolicy(per_drives=28, min_spares=2)) == 2
    assert spare_count(100, SparePolicy(per_drives=28, min_spares=2)) == 4
    assert np.asarray(hot_spares(np.array([28, 48, 100]), 28, 2)).tolist() == [2, 2, 4]


def test_rows_without_a_spare_ratio_keep_the_minimum() -> None:
    # one policy per row: NaN = no ratio (min_spares alone)
    per = np.array([28.0, math.nan, 14.0])
    assert np.asarray(hot_spares(np.array([100, 100, 100]), per, np.array([2, 3, 1]))).tolist() == [4, 3, 8]
    assert hot_spares(100, None, 3) == 3
    assert np.asarray(hot_spares(np.array([10, 20]), None, 3)).tolist() == [3, 3]


def test_shelves_hold_what_the_controller_enclosure_does_not() -> None:
    # 50 drives, 12 in the controller enclosure, 24 per shelf: ceil(38 / 24) = 2
    assert shelves_needed(50, 12, 24) == 2
    assert shelves_needed(10, 12, 24) == 0  # all in the controller enclosure
    many = shelves_needed(np.array([10, 50, 61]), np.array([12, 12, 12]), np.array([24.0, 24.0, 24.0]))
    assert np.asarray(many).tolist() == [0.0, 2.0, 3.0]


def test_the_enclosures_add_up_per_shelf() -> None:
    # 3U controller + 2 x 4U shelves = 11U; 800 W + 2 x 100 W = 1000 W;
    # 180,000 + 2 x 8,000 + 512 GB x 50 USD/GB = 221,600 USD
    assert enclosure_rack_units(2.0, 3.0, 4.0) == 11.0
    assert enclosure_power_w(2.0, 800.0, 100.0) == 1000.0
    assert enclosure_cost_usd(2.0, 180_000.0, 8_000.0, 512.0, 50.0) == 221_600.0
    shelves = np.array([0.0, 2.0])
    assert enclosure_rack_units(shelves, np.array([3.0, 3.0]), np.array([4.0, 4.0])).tolist() == [3.0, 11.0]


def test_nodes_attach_their_drives_never_below_the_base() -> None:
    # 100 drives at 24 per node: ceil(4.17) = 5; 10 drives: 1, but the base is 2
    assert nodes_for_drives(100, 24, 2) == 5
    assert nodes_for_drives(10, 24, 2) == 2
    assert np.asarray(nodes_for_drives(np.array([10, 48, 49, 100]), 24, 2)).tolist() == [2, 2, 3, 5]


def test_the_back_end_bus_divides_by_every_controllers_bus() -> None:
    # 1,200 MB/s over 2 controllers of 1,500 MB/s each: 1200 / 3000 = 40 %
    assert backend_bus_pct(1200.0, 1500.0, 2) == 40.0
    assert backend_bus_pct(np.array([600.0, 3000.0]), 1500.0, 2).tolist() == [20.0, 100.0]
