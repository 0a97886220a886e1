"""app/charts: the one tick routine every chart's axis comes from, and the line
over time that a page can draw with it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.charts import axis, nice
from app.charts.page import columns, line


@pytest.mark.parametrize(("value", "expected"), [
    (0.0, 1.0), (-3.0, 1.0), (0.3, 0.5), (1.0, 1.0), (1.01, 2.0), (2.2, 2.5), (7.0, 10.0), (0.1 + 0.2, 0.5),
    (40.0, 50.0), (250.0, 250.0), (251.0, 500.0)])
def test_nice_is_the_smallest_round_number_at_or_above(value: float, expected: float) -> None:
    assert nice(value) == pytest.approx(expected)


@pytest.mark.parametrize(("low", "high"), [
    (0, 0), (0, 1), (0, 5), (0, 13), (0, 0.37), (-0.23, 0.23), (1437, 1622), (1500, 1500.5), (-7, -2)])
def test_an_axis_holds_its_values_in_a_few_round_steps(low: float, high: float) -> None:
    scale = axis(low, high)
    ticks = scale.ticks
    assert ticks[0] <= low and ticks[-1] >= high and len(ticks) >= 2
    # Four steps, or five when rounding both ends out adds one: never a crowded axis.
    assert 2 <= len(ticks) <= 6, ticks
    assert all(t == pytest.approx(round(t / scale.step) * scale.step) for t in ticks)  # on the step
    assert scale.step == nice(scale.step)
    assert scale.at(scale.low, 200, 0) == 200 and scale.at(scale.high, 200, 0) == 0


def test_a_symmetric_range_gets_a_symmetric_axis() -> None:
    scale = axis(-0.23, 0.23)
    assert scale.ticks == pytest.approx([-0.4, -0.2, 0.0, 0.2, 0.4])


def test_columns_count_from_zero_in_round_steps() -> None:
    svg = columns("Per day", [("01-01", 3.0), ("01-02", 13.0)], "Matches")
    labels = re.findall(r'text-anchor="end" fill="[^"]+">([^<]+)<', svg)
    assert labels == ["0", "5", "10", "15"]


def test_a_line_over_time_is_placed_by_date_on_an_axis_around_its_values() -> None:
    start = datetime(2025, 3, 1, tzinfo=UTC)
    points = [(start, 1500.0), (start + timedelta(days=1), 1516.0), (start + timedelta(days=10), 1462.5)]
    svg = line("Rating <standard>", points, "Rating")
    assert svg.startswith('<svg class="chart"') and "Rating &lt;standard&gt;" in svg
    ticks = re.findall(r'text-anchor="end" fill="[^"]+">(\d+)<', svg)
    assert ticks == ["1460", "1480", "1500", "1520"]  # not from zero, and plain numbers (no "1.5k")
    path = re.search(r'<polyline points="([^"]+)"', svg)
    assert path
    xs = [float(p.split(",")[0]) for p in path.group(1).split()]
    ys = [float(p.split(",")[1]) for p in path.group(1).split()]
    assert xs[0] < xs[1] < xs[2] and xs[1] - xs[0] == pytest.approx((xs[2] - xs[0]) / 10, abs=0.1)
    assert ys[1] < ys[0] < ys[2]  # higher ratings are drawn higher
    assert "2025-03-01" in svg and "2025-03-11" in svg and "2025-03-02: 1516" in svg


def test_a_line_of_one_point_or_none_still_draws() -> None:
    one = line("Rating", [(datetime(2025, 3, 1, tzinfo=UTC), 1500.0)], "Rating")
    assert one.count("<circle") == 1 and "2025-03-01" in one
    assert "<polyline" not in line("Rating", [], "Rating") and line("Rating", [], "Rating").endswith("</svg>")


def test_an_axis_never_says_one_date_twice() -> None:
    start = datetime(2025, 3, 1, 9, tzinfo=UTC)
    one_day = [(start + timedelta(hours=h), 1500.0 + h) for h in range(4)]  # three matches of one morning
    labels = re.findall(r'y="\d+" text-anchor="(?:start|middle|end)" fill="[^"]+">(\d{4}-\d\d-\d\d)<', line("R", one_day, "R"))
    assert labels == ["2025-03-01"]
    two_days = [(start, 1500.0), (start + timedelta(hours=20), 1510.0)]  # the middle falls on the first day
    labels = re.findall(r'text-anchor="(?:start|middle|end)" fill="[^"]+">(\d{4}-\d\d-\d\d)<', line("R", two_days, "R"))
    assert labels == ["2025-03-01", "2025-03-02"]
