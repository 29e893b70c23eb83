"""Qualification evidence from Tenhou records: what the attached records prove for the
applicant's account (games in the year per room, dates), whether the tier's minimum is met, a
snapshot stored with the decision, and records another player already used are flagged."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from league import services as league_services
from league.models import QualificationTier
from online import selectors, services
from online.models import EvidenceCheck, EvidenceRecord
from online.tenhou import parse_record
from tests.actors import make_player_user
from kyoku.principals import SYSTEM

R2020 = "2020052221gm-00a9-0000-6f0524c7.mjlog"  # Phoenix, 2020-05-22
R2018 = "2018040923gm-00a9-0000-1833afca.mjlog"  # Phoenix, 2018-04-09


@pytest.fixture
def season2020(league, tenhou_rules, players):
    season = league_services.season_create(league=league, year=2020, number=3, rule_set=tenhou_rules, actor=SYSTEM)
    league_services.season_status_set(season=season, status="open", actor=SYSTEM)
    return season


def tier(league, games):
    return QualificationTier.objects.create(
        league=league,
        code=f"T{games}",
        description="Tenhou Phoenix regular",
        effective_year=2020,
        validity="yearly",
        requirements={"accounts": [{"platform": "tenhou", "min_games_in_year": games, "min_room": "phoenix"}]},
    )


def apply(player, season, t, account):
    # The player claims the tier's minimum; the records show what is proved.
    return league_services.application_submit(
        player=player,
        season=season,
        tier=t,
        evidence={
            "platform": "tenhou",
            "account_id": account,
            "games_in_year": t.requirements["accounts"][0]["min_games_in_year"],
            "room": "phoenix",
            "evidence_year": 2020,
        },
        actor=SYSTEM,
    )


def files(fixture_bytes, *names):
    return [(n, fixture_bytes(n)) for n in names]


def test_records_prove_games_in_the_year_and_room(league, season2020, players, fixture_bytes):
    account = parse_record(fixture_bytes(R2020)).names[0]
    application = apply(players[0], season2020, tier(league, 1), account)
    services.evidence_attach(
        application=application, files=files(fixture_bytes, R2020, R2018, "ranked_game.json"), actor=SYSTEM
    )
    s = selectors.evidence_summary(application=application)
    assert s["year"] == 2020 and account in s["accounts"]
    assert s["counted"] == 1 and s["per_room"] == {"phoenix": 1} and s["meets"] is True
    by_file = {r["file"]: r for r in s["records"]}
    assert by_file[R2020]["played_on"] == "2020-05-22" and by_file[R2020]["counts"]
    assert by_file[R2018]["account"] is False and not by_file[R2018]["counts"]
    assert by_file["ranked_game.json"]["room"] == "special"


def test_below_the_minimum_is_shown(league, season2020, players, fixture_bytes):
    account = parse_record(fixture_bytes(R2020)).names[0]
    application = apply(players[0], season2020, tier(league, 40), account)
    services.evidence_attach(application=application, files=files(fixture_bytes, R2020), actor=SYSTEM)
    s = selectors.evidence_summary(application=application)
    assert (s["counted"], s["needed"], s["meets"]) == (1, 40, False)


def test_zip_archive_and_duplicates(league, season2020, players, fixture_bytes):
    account = parse_record(fixture_bytes(R2020)).names[0]
    application = apply(players[0], season2020, tier(league, 1), account)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(f"logs/{R2020}", fixture_bytes(R2020))
        z.writestr(R2018, fixture_bytes(R2018))
    upload = SimpleUploadedFile("logs.zip", buf.getvalue())
    services.evidence_attach(application=application, files=services.evidence_files([upload]), actor=SYSTEM)
    services.evidence_attach(application=application, files=files(fixture_bytes, R2020), actor=SYSTEM)
    assert EvidenceRecord.objects.filter(application=application).count() == 2


def test_snapshot_stored_with_the_decision(league, season2020, players, admin, fixture_bytes):
    account = parse_record(fixture_bytes(R2020)).names[0]
    application = apply(players[0], season2020, tier(league, 1), account)
    services.evidence_attach(application=application, files=files(fixture_bytes, R2020), actor=SYSTEM)
    league_services.application_decide(application=application, approve=True, actor=admin)
    snap = EvidenceCheck.objects.get(application=application).snapshot
    assert snap["counted"] == 1 and snap["meets"] is True and snap["records"][0]["log_id"].startswith("2020052221gm")
    # Records added later do not change what was checked.
    assert application.online_records.count() == 1


def test_record_used_by_another_player_is_flagged(league, season2020, players, fixture_bytes):
    names = parse_record(fixture_bytes(R2020)).names
    t = tier(league, 1)
    first = apply(players[0], season2020, t, names[0])
    second = apply(players[1], season2020, t, names[1])
    services.evidence_attach(application=first, files=files(fixture_bytes, R2020), actor=SYSTEM)
    services.evidence_attach(application=second, files=files(fixture_bytes, R2020), actor=SYSTEM)
    s = selectors.evidence_summary(application=second)
    assert s["records"][0]["used_by_other"] == players[0].display_name


@pytest.mark.parametrize(
    "name,content",
    [
        ("a.png", b"\x89PNG\r\n\x1a\n0000"),
        ("sanma.mjlog", b'<mjloggm><GO type="185"/><UN n0="a" n1="b" n2="c" n3=""/></mjloggm>'),
        ("bad.zip", b"PK\x03\x04broken"),
    ],
)
def test_bad_evidence_is_400_naming_records(name, content, league, season2020, players):
    user = make_player_user("applicant", players[0])
    application = apply(players[0], season2020, tier(league, 1), "someone")
    client = Client()
    client.force_login(user)
    r = client.post(f"/online/applications/{application.pk}/records/", {"records": [SimpleUploadedFile(name, content)]})
    assert r.status_code == 200 and "errorlist" in r.content.decode()
    assert not EvidenceRecord.objects.exists()


def test_other_players_cannot_see_or_attach(league, season2020, players, fixture_bytes):
    application = apply(players[0], season2020, tier(league, 1), "someone")
    client = Client()
    client.force_login(make_player_user("other", players[1]))
    assert client.get(f"/online/applications/{application.pk}/records/").status_code == 403
