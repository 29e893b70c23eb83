"""One way to show numbers on every page: raw scores with thousands separators and league points
with one decimal, both with a real minus sign ("30000" beside "35,200" and "-20" beside "−20.0"
were seen on one page)."""

import pytest

from kyoku.templatetags.kyoku_labels import league_points, score


@pytest.mark.parametrize("value, shown", [(30000, "30,000"), (35200, "35,200"), (-1400, "−1,400"), (0, "0"),
                                          (None, ""), ("12", "12")])
def test_score(value, shown):
    assert score(value) == shown


@pytest.mark.parametrize("value, shown", [(-20, "−20.0"), ("-20.0", "−20.0"), (63, "63.0"), ("16.7", "16.7"),
                                          (0, "0.0"), (-0.04, "0.0"), (None, "")])
def test_league_points(value, shown):
    assert league_points(value) == shown
