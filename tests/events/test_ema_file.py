"""Issue 47 §1: the EMA file as the EMA counts and reads it.

- "Players" in the header is the number of ranked rows (the N of the base rank), never the players
  plus the substitutes who sat in; the MERS weight follows the same count.
- A player who withdrew after playing is ranked and marked "withdrawn".
- EMA numbers are eight digits with the member association's two first (``04`` France): the CSV
  writes them as the EMA does; the XLSX types them as text so a spreadsheet keeps the zero, and a
  name that looks like a formula is a text cell shown as written (no guard quote)."""

import csv
import datetime as dt
import io
from decimal import Decimal as D

import pytest
from django.test import Client
from openpyxl import load_workbook

from events import ema, selectors, services
from events.models import Registration
from league.models import Game, Player

SCORES = [48000, 32000, 12000, 8000]
HOSTILE = '=HYPERLINK("http://x")'


def _client(user):
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def with_sub(league, admin, rules):
    """Fifteen players and one substitute at the fourth table; round 1 played, then the player at
    index 4 withdraws. The first player's family name looks like a formula."""
    event = services.event_create(
        league=league,
        name="Sub Open",
        slug="sub-open",
        starts_on=dt.date(2026, 12, 12),
        ends_on=dt.date(2026, 12, 12),
        rule_set=rules,
        capacity=16,
        rounds=2,
        round_minutes=60,
        cut=0,
        actor=admin,
    )
    players = [Player.objects.create(display_name=f"Sb {i:02d}", membership_number=f"SB{i:03d}") for i in range(15)]
    Player.objects.filter(pk=players[0].pk).update(family_name=HOSTILE, given_name="Jo")
    regs = []
    for i, p in enumerate(players):
        reg = services.registration_add(event=event, player=p, actor=admin, ema_number=f"04{i:06d}", nationality="FRA")
        services.checkin_set(registration=reg, present=True, actor=admin)
        regs.append(reg)
    sub = Player.objects.create(display_name="Sb Sub", membership_number="SBSUB")
    services.registration_add(event=event, player=sub, substitute=True, actor=admin, nationality="JPN")
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=1)
    for game in Game.objects.filter(season=event.season, match_day=1):
        services.table_result_enter(game=game, scores=SCORES, actor=admin)
    event.refresh_from_db()
    event.sub, event.players, event.regs = sub, players, regs
    return event


def _rows(response):
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_the_header_counts_the_ranked_rows_not_the_substitutes(with_sub, admin):
    rows = _rows(_client(admin).get(f"/events/{with_sub.pk}/ema.csv"))
    start = rows.index(list(ema.COLUMNS))
    header = dict(r for r in rows[:start] if r)
    body = rows[start + 1 :]
    assert len(body) == 15  # the substitute played but is not ranked
    assert header["Players"] == "15" and header["Nations"] == "1"  # the substitute's JPN not counted
    assert selectors.mers_counts(with_sub) == (15, 1)
    # every base rank over the same N = 15: 1000 × (15 − position) / 14, cut
    assert all(D(r[6]) == ema.mers_base(int(r[0]), 15) for r in body)
    assert {r[0] for r in body} >= {"1"} and max(int(r[0]) for r in body) < 15  # shared last places
    assert ema.mers_base(2, 15) == D(928)  # 1000 × 13 / 14 = 928.57…, cut


def test_a_player_who_withdrew_after_playing_is_marked(with_sub, admin):
    leaving = with_sub.regs[4]
    services.registration_withdraw(registration=leaving, actor=admin)
    rows = _rows(_client(admin).get(f"/events/{with_sub.pk}/ema.csv"))
    body = rows[rows.index(list(ema.COLUMNS)) + 1 :]
    marked = {r[3]: r[7] for r in body}
    assert marked["04000004"] == "withdrawn"
    assert [n for n, m in marked.items() if m] == ["04000004"]


def test_ema_numbers_keep_their_leading_zero_and_names_show_as_written(with_sub, admin):
    rows = _rows(_client(admin).get(f"/events/{with_sub.pk}/ema.csv"))
    body = rows[rows.index(list(ema.COLUMNS)) + 1 :]
    assert "04000000" in {r[3] for r in body}  # the CSV: the number as the EMA writes it
    assert "'" + HOSTILE in {r[1] for r in body}  # a CSV opened in a spreadsheet is guarded
    response = _client(admin).get(f"/events/{with_sub.pk}/ema.xlsx")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    sheet = load_workbook(io.BytesIO(response.content)).active
    cells = list(sheet.iter_rows())
    start = next(i for i, row in enumerate(cells) if row[0].value == "Position")
    header = {row[0].value: row[1].value for row in cells[:start] if row[0].value}
    assert header["Players"] == "15"
    body = cells[start + 1 :]
    assert len(body) == 15
    by_number = {row[3].value: row for row in body}
    first = by_number["04000000"]
    assert first[3].data_type == "s" and first[3].number_format == "@"
    assert first[1].value == HOSTILE and first[1].data_type == "s"  # text, not a formula, no quote
    assert isinstance(first[0].value, int) and first[5].data_type == "n"  # position and points: numbers
    csv_points = {r[3]: r[5] for r in rows[rows.index(list(ema.COLUMNS)) + 1 :]}
    assert {n: f"{row[5].value:.1f}" for n, row in by_number.items()} == csv_points


def test_the_xlsx_is_the_directors_only(with_sub):
    assert Client().get(f"/events/{with_sub.pk}/ema.xlsx").status_code in (302, 403)
    assert Registration.objects.filter(event=with_sub).count() == 16
