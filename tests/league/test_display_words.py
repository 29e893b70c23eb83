"""One way to show numbers on every page: raw scores with thousands separators and league points
with one decimal, both with a real minus sign ("30000" beside "35,200" and "-20" beside "−20.0"
were seen on one page)."""

import pytest

from kyoku.templatetags.kyoku_labels import league_points, score
from kyoku.principals import SYSTEM


@pytest.mark.parametrize(
    "value, shown", [(30000, "30,000"), (35200, "35,200"), (-1400, "−1,400"), (0, "0"), (None, ""), ("12", "12")]
)
def test_score(value, shown):
    assert score(value) == shown


@pytest.mark.parametrize(
    "value, shown",
    [(-20, "−20.0"), ("-20.0", "−20.0"), (63, "63.0"), ("16.7", "16.7"), (0, "0.0"), (-0.04, "0.0"), (None, "")],
)
def test_league_points(value, shown):
    assert league_points(value) == shown


def test_application_form_names_each_season_with_its_league(db):
    from league import services
    from league.forms import ApplicationForm
    from kyoku.models import League

    rules = services.rule_set_create(name="WRC", slug="wrc-forms", preset="wrc", is_template=True, actor=SYSTEM)
    for slug, name in (("hk", "Hong Kong League"), ("kl", "Kowloon Club")):
        league = League.objects.create(name=name, slug=slug)
        services.season_status_set(
            season=services.season_create(league=league, year=2026, number=2, rule_set=rules, actor=SYSTEM),
            status="open",
            actor=SYSTEM,
        )
    labels = [label for _value, label in ApplicationForm().fields["season"].choices][1:]
    assert labels == ["Hong Kong League · 2026 S2", "Kowloon Club · 2026 S2"]
