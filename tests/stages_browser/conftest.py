import pytest

from kyoku.principals import SYSTEM
from league import services as league_services


@pytest.fixture
def rules(db):
    return league_services.rule_set_create(
        name="M-League", slug="mleague-semi", preset="mleague", is_template=True, actor=SYSTEM
    )
