"""Evidence that cannot be faked by editing files: the same game is recognised by its content (the
wall seed and the deals), whatever the file is called or which bytes were changed; another player's
use of the game is shown to the reviewer, not to other applicants; each record links to its
public log and says its date is the file name's; one upload has one byte budget."""

import io
import urllib.parse
import zipfile

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league import services as league_services
from league.models import QualificationTier
from online import selectors, services
from online.models import EvidenceRecord
from online.tenhou import parse_record
from tests.actors import make_player_user
from kyoku.principals import SYSTEM

R2020 = "2020052221gm-00a9-0000-6f0524c7.mjlog"


@pytest.fixture
def season2020(league, tenhou_rules, players):
    season = league_services.season_create(league=league, year=2020, number=3, rule_set=tenhou_rules, actor=SYSTEM)
    league_services.season_status_set(season=season, status="open", actor=SYSTEM)
    return season


@pytest.fixture
def phoenix_tier(league):
    return QualificationTier.objects.create(
        league=league,
        code="P40",
        description="Tenhou Phoenix regular",
        effective_year=2020,
        validity="yearly",
        requirements={"accounts": [{"platform": "tenhou", "min_games_in_year": 40, "min_room": "phoenix"}]},
    )


def apply(player, season, tier, account):
    return league_services.application_submit(
        player=player,
        season=season,
        tier=tier,
        evidence={
            "platform": "tenhou",
            "account_id": account,
            "games_in_year": 40,
            "room": "phoenix",
            "evidence_year": 2020,
        },
        actor=SYSTEM,
    )


def forged_copies(data: bytes, account: str, n: int) -> list[tuple[str, bytes]]:
    """The issue's forgery: the applicant's name in n0, one byte changed, the file renamed."""
    text = data.decode()
    original = parse_record(data).names[0]
    text = text.replace(f'n0="{urllib.parse.quote(original)}"', f'n0="{urllib.parse.quote(account)}"', 1)
    copies = []
    for i in range(n):
        changed = text.replace('ver="2.3"', f'ver="2.3" x="{i}"', 1)  # one attribute more: other bytes
        copies.append((f"2020{(i % 12) + 1:02d}1{i % 10}21gm-00a9-0000-{i:08x}.mjlog", changed.encode()))
    return copies


def test_forty_renamed_edited_copies_count_once(season2020, phoenix_tier, players, fixture_bytes):
    application = apply(players[0], season2020, phoenix_tier, "Applicant")
    copies = forged_copies(fixture_bytes(R2020), "Applicant", 40)
    assert len({services.hashlib.sha256(d).hexdigest() for _n, d in copies}) == 40
    services.evidence_attach(application=application, files=copies, actor=SYSTEM)
    summary = selectors.evidence_summary(application=application)
    assert EvidenceRecord.objects.filter(application=application).count() == 1
    assert summary["counted"] <= 1 and summary["meets"] is False


def test_json_and_mjlog_of_one_deal_share_a_fingerprint():
    # the mjlog tile ids and the tenhou.net/6 codes name the same tiles
    from online.tenhou.parse import tile_code

    assert [tile_code(t) for t in (0, 16, 17, 35, 36, 108, 135)] == [11, 51, 15, 19, 21, 41, 47]
    assert tile_code(16, red=False) == 15


def test_other_players_use_is_for_the_reviewer_only(
    client, league, season2020, phoenix_tier, players, admin, fixture_bytes
):
    data = fixture_bytes(R2020)
    first = apply(players[0], season2020, phoenix_tier, "Applicant")
    services.evidence_attach(application=first, files=[(R2020, data)], actor=SYSTEM)
    second = apply(players[1], season2020, phoenix_tier, "Other")
    renamed = forged_copies(data, "Other", 1)
    services.evidence_attach(application=second, files=renamed, actor=SYSTEM)
    summary = selectors.evidence_summary(application=second)
    assert summary["records"][0]["used_by_other"] == str(players[0].display_name)
    url = reverse("online-application-records", args=[second.pk])
    client.force_login(make_player_user("second", players[1]))
    applicant_page = client.get(url).content.decode()
    assert "Also used by" not in applicant_page and players[0].display_name not in applicant_page
    assert "date from the file name, not verified" in applicant_page
    client.force_login(admin)
    reviewer_page = client.get(url).content.decode()
    assert "Also used by" in reviewer_page and players[0].display_name in reviewer_page
    record = summary["records"][0]
    assert record["public_log"] == f"https://tenhou.net/0/?log={record['log_id']}"
    assert record["public_log"] in reviewer_page


def test_one_upload_has_one_byte_budget(monkeypatch):
    monkeypatch.setattr(services, "MAX_ARCHIVE_BYTES", 50_000)
    parts = []
    for i in range(10):  # each archive small and under the limit alone; together over it
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(f"r{i}.mjlog", b"<mjloggm>" + b" " * 9_000 + b"</mjloggm>")
        parts.append(SimpleUploadedFile(f"part{i}.zip", buf.getvalue()))
    with pytest.raises(ValidationError) as err:
        services.evidence_files(parts)
    assert "records" in err.value.message_dict


def test_an_application_holds_a_bounded_number_of_records(
    season2020, phoenix_tier, players, fixture_bytes, monkeypatch
):
    monkeypatch.setattr(services, "MAX_RECORDS_PER_APPLICATION", 2)
    application = apply(players[0], season2020, phoenix_tier, "Applicant")
    services.evidence_attach(application=application, files=[(R2020, fixture_bytes(R2020))], actor=SYSTEM)
    with pytest.raises(ValidationError) as err:
        services.evidence_attach(application=application, files=[("a.mjlog", b"x"), ("b.mjlog", b"y")], actor=SYSTEM)
    assert "records" in err.value.message_dict
