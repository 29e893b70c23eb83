"""The roster sheet: every import edge (encodings, Excel cells, headers, duplicates, formulas,
limits), the preview (nothing written) and the confirmation (every row or none), and the export
that re-imports with no change."""

import datetime as dt
import io

import pytest

from kyoku.models import AuditLog
from league.models import LeagueMembership, Player, RosterImport
from league.services import roster
from tests.roster.sheets import csv_bytes, upload, xlsx_bytes

HEADER = ["Membership number", "Name", "Native name", "Email", "Tenhou", "Mahjong Soul"]


def preview_of(league, admin, data, name="roster.csv"):
    return roster.roster_import_preview(league=league, data=data, filename=name, actor=admin)


def by_line(preview):
    return {row["line"]: row for row in preview.rows}


def import_url(league):
    return f"/leagues/{league.slug}/members/import/"


# ---------------------------------------------------------------- reading


def test_csv_with_bom_new_update_unchanged(league, admin, season, players):
    data = csv_bytes(
        [
            HEADER,
            ["N-1", "New One", "新一", "one@example.org", "", ""],
            ["M001", "Player 1", "選手1", "", "", ""],  # unchanged (blank cells change nothing)
            ["M002", "Player Two", "", "two@example.org", "t2", ""],  # update
        ],
        bom=True,
    )
    preview = preview_of(league, admin, data)
    rows = by_line(preview)
    assert rows[2]["outcome"] == "new" and rows[2]["values"]["membership_number"] == "N-1"
    assert rows[3]["outcome"] == "unchanged"
    assert rows[4]["outcome"] == "update"
    assert rows[4]["changes"] == {
        "display_name": ["Player 2", "Player Two"],
        "email": ["", "two@example.org"],
        "tenhou_id": ["", "t2"],
    }
    assert preview.summary["counts"] == {"new": 1, "unchanged": 1, "update": 1}
    assert not Player.objects.filter(membership_number="N-1").exists()  # nothing written yet


def test_semicolon_csv_and_headers_in_chinese_and_japanese(league, admin, season):
    data = csv_bytes(
        [["會員編號", "姓", "名", "メール", "Notes"], ["Z-1", "陳", "大文", "z@example.org", "likes tea"]],
        delimiter=";",
    )
    preview = preview_of(league, admin, data)
    row = preview.rows[0]
    assert row["outcome"] == "new", row
    assert row["values"]["family_name"] == "陳" and row["values"]["given_name"] == "大文"
    assert row["values"]["display_name"] == "陳大文"  # East Asian parts: family first, no space
    assert row["values"]["name_order"] == "family_first"
    assert preview.summary["ignored"] == ["Notes"]


def test_full_width_header_and_case(league, admin, season):
    data = csv_bytes([["ＭＥＭＢＥＲ ＮＯ", "NAME"], ["Q-1", "Q"]])
    assert preview_of(league, admin, data).rows[0]["outcome"] == "new"


def test_legacy_encoding_refused_with_words(league, admin):
    data = csv_bytes([HEADER[:2], ["B-1", "陳大文"]], encoding="big5")
    with pytest.raises(Exception) as exc:
        preview_of(league, admin, data)
    assert "UTF-8" in str(exc.value)


def test_xlsx_cells_dates_numbers_formulas(league, admin, season, players):
    data = xlsx_bytes(
        [
            ["Member No", "Name", "Joined", "Email"],
            [123.0, "Number Cell", dt.datetime(2024, 3, 5), ""],
            ["00124", "Text Zeros", "", ""],
            ["X-3", '=HYPERLINK("http://evil","x")', "", ""],
            ["X-4", dt.datetime(2020, 1, 1), "", ""],
            ["X-5", "Sum", "", '=A1&"@example.org"'],
        ]
    )
    rows = by_line(preview_of(league, admin, data, "roster.xlsx"))
    assert rows[2]["outcome"] == "new" and rows[2]["values"]["membership_number"] == "123"
    assert rows[2]["values"]["joined"] == "2024-03-05"
    assert rows[3]["values"]["membership_number"] == "00124"
    assert rows[4]["outcome"] == "error" and "formula" in rows[4]["errors"][0]
    assert rows[5]["outcome"] == "error" and "a date where a name" in rows[5]["errors"][0]
    assert rows[6]["outcome"] == "error" and "email: a formula" in rows[6]["errors"][0]


def test_formula_in_a_csv_name_refused_but_a_guarded_one_is_text(league, admin, season):
    data = csv_bytes([HEADER[:2], ["F-1", "=cmd|' /C calc'!A0"], ["F-2", "'=Equals"], ["F-3", "-Dash-"]])
    rows = by_line(preview_of(league, admin, data))
    assert rows[2]["outcome"] == "error" and "formula" in rows[2]["errors"][0]
    assert rows[3]["outcome"] == "new" and rows[3]["values"]["display_name"] == "=Equals"
    assert rows[4]["outcome"] == "new" and rows[4]["values"]["display_name"] == "-Dash-"


def test_row_errors_in_words(league, admin, season, stranger, players):
    data = csv_bytes(
        [
            HEADER,
            ["D-1", "First", "", "", "", ""],
            ["D-1", "Second", "", "", "", ""],
            ["S-001", "Guess Who", "", "", "", ""],
            ["E-1", "", "", "", "", ""],
            ["E-2", "Bad Mail", "", "nope", "", ""],
            ["E-3", "x" * 81, "", "", "", ""],
            ["E-4", "Zero\u200bWidth", "", "", "", ""],
            ["", "No Number", "", "", "", ""],
        ]
    )
    preview = preview_of(league, admin, data)
    rows = by_line(preview)
    assert "on rows 2, 3" in rows[2]["errors"][0] and "on rows 2, 3" in rows[3]["errors"][0]
    assert rows[4]["errors"] == ["membership number: this number is already used"]
    assert "Stranger" not in str(preview.rows) and "hidden-id" not in str(preview.rows)
    assert rows[5]["errors"] == ["name: missing"]
    assert rows[6]["errors"] == ["email: This is not an email address."]
    assert "at most 80" in rows[7]["errors"][0]
    assert "invisible or control character" in rows[8]["errors"][0]
    assert rows[9]["errors"] == ["membership number: give a number"]
    assert [r["outcome"] for r in preview.rows] == ["error"] * 8  # errors first


@pytest.mark.parametrize(
    "data,words",
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 200, "not a spreadsheet"),
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj", "not a spreadsheet"),
        (b"PK\x03\x04garbage-not-a-zip", "not a spreadsheet"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "old Excel"),
        (b"Name,Email\nA,a@example.org\n", "No membership number column"),
        (b"Member No,Email\n1,a@example.org\n", "No name column"),
    ],
)
def test_files_refused_as_a_whole(league, admin, data, words):
    with pytest.raises(Exception) as exc:
        preview_of(league, admin, data)
    assert words in str(exc.value)
    assert not RosterImport.objects.exists()


def test_row_limit(league, admin, settings):
    settings.ROSTER_IMPORT_MAX_ROWS = 3
    ok = csv_bytes([HEADER[:2], *[[f"R{i}", f"R {i}"] for i in range(3)]])
    assert len(preview_of(league, admin, ok).rows) == 3
    with pytest.raises(Exception) as exc:
        preview_of(league, admin, csv_bytes([HEADER[:2], *[[f"R{i}", f"R {i}"] for i in range(4)]]))
    assert "more than 3 rows" in str(exc.value)


def test_a_20_mb_file_is_refused(page, league):
    big = b"Member No,Name\n" + b"A," + b"x" * (20 * 1024 * 1024)
    response = page.post(import_url(league), {"action": "preview", "file": upload(big)})
    assert response.status_code == 400
    assert "larger than 5.0 MB" in response.content.decode()
    assert not RosterImport.objects.exists()


# ---------------------------------------------------------------- confirm


def test_confirm_through_the_page_writes_every_row(page, league, players):
    data = csv_bytes(
        [HEADER, ["N-1", "New One", "", "one@example.org", "", ""], ["M002", "Player Two", "", "", "", ""]]
    )
    response = page.post(import_url(league), {"action": "preview", "file": upload(data)})
    assert response.status_code == 302
    preview = RosterImport.objects.get()
    shown = page.get(response["Location"])
    assert "New One" in shown.content.decode() and 'value="confirm"' in shown.content.decode()
    response = page.post(import_url(league), {"action": "confirm", "preview": preview.pk})
    assert response.status_code == 302
    new = Player.objects.get(membership_number="N-1")
    assert LeagueMembership.objects.get(league=league, player=new).contact_email == "one@example.org"
    assert Player.objects.get(membership_number="M002").display_name == "Player Two"
    audit = AuditLog.objects.get(action="roster.import")
    assert audit.data["counts"] == {"new": 1, "update": 1, "unchanged": 0}
    # confirmed once: a second confirmation is refused
    again = page.post(import_url(league), {"action": "confirm", "preview": preview.pk})
    assert again.status_code == 400


def test_confirm_refused_while_a_row_has_an_error(league, admin, season):
    preview = preview_of(league, admin, csv_bytes([HEADER[:2], ["G-1", "Good"], ["", "No Number"]]))
    with pytest.raises(Exception) as exc:
        roster.roster_import_confirm(preview=preview, actor=admin)
    assert "Nothing was written" in str(exc.value)
    assert not Player.objects.filter(membership_number="G-1").exists()


def test_confirm_is_all_or_nothing_when_the_roster_changed(league, admin, season, other_league):
    preview = preview_of(league, admin, csv_bytes([HEADER[:2], ["A-1", "Alpha"], ["A-2", "Beta"]]))
    # meanwhile another league takes the second number
    taken = Player.objects.create(display_name="Taken", membership_number="A-2")
    LeagueMembership.objects.create(league=other_league, player=taken, via="system")
    with pytest.raises(Exception) as exc:
        roster.roster_import_confirm(preview=preview, actor=admin)
    assert "preview the file again" in str(exc.value)
    assert not Player.objects.filter(membership_number="A-1").exists()


def test_preview_page_lists_errors_first_and_counts(page, league):
    data = csv_bytes([HEADER[:2], ["OK-1", "Fine"], ["", "Broken"]])
    response = page.post(import_url(league), {"action": "preview", "file": upload(data)}, follow=True)
    body = response.content.decode()
    assert body.index("Broken") < body.index("Fine")
    assert "1 new · 0 updated · 0 unchanged · 1 with errors" in body
    assert 'value="confirm"' not in body


def test_preview_without_a_file_or_with_a_stale_id(page, league):
    assert page.post(import_url(league), {"action": "preview"}).status_code == 400
    assert page.post(import_url(league), {"action": "confirm", "preview": "999"}).status_code == 400


# ---------------------------------------------------------------- export


def _odd_members(league, admin):
    for number, name, native in (("00123", "=Equals Start", "零"), ("E-2", "-Dash", ""), ("E-3", "@At", "")):
        roster.member_add(
            league=league,
            values={"membership_number": number, "display_name": name, "native_name": native},
            actor=admin,
        )
    roster.member_edit(
        membership=LeagueMembership.objects.get(league=league, player__membership_number="E-2"),
        values={
            "email": "e2@example.org",
            "tenhou_id": "+plus",
            "family_name": "Dash",
            "given_name": "Minus",
            "name_order": "family_first",
        },
        actor=admin,
    )


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_export_reimports_with_zero_changes(page, league, admin, players, fmt):
    _odd_members(league, admin)
    response = page.get(f"/leagues/{league.slug}/members/export.{fmt}")
    assert response.status_code == 200
    data = response.content
    if fmt == "csv":
        text = data.decode("utf-8-sig")
        assert "'=Equals Start" in text and "'-Dash" in text and "'+plus" in text  # guarded cells
    else:  # text cells as a person reads them: no guard apostrophe, and no formula
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(data))
        cells = [c for row in book.active.iter_rows() for c in row if c.value]
        values = {c.value for c in cells}
        assert "=Equals Start" in values and "-Dash" in values and "+plus" in values
        assert {c.data_type for c in cells} == {"s"}
    preview = preview_of(league, admin, data, f"export.{fmt}")
    assert preview.summary["counts"] == {"unchanged": 11}, [r for r in preview.rows if r["outcome"] != "unchanged"]
    assert preview.summary["ignored"] == []


def test_export_leaves_archived_members_out_and_needs_a_known_format(page, league, players, admin):
    roster.member_archive(membership=LeagueMembership.objects.get(league=league, player=players[0]), actor=admin)
    text = page.get(f"/leagues/{league.slug}/members/export.csv").content.decode("utf-8-sig")
    assert "M001" not in text and "M002" in text
    assert page.get(f"/leagues/{league.slug}/members/export.pdf").status_code == 404


def test_an_imported_rename_moves_the_standings_version(
    league, admin, season, players, django_capture_on_commit_callbacks
):
    from league import services
    from league.models import Division, Standing
    from kyoku.principals import SYSTEM

    division = season.divisions.get(code="A")
    game = services.game_create(division=division, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    services.game_result_record(game=game, scores=[30000, 30000, 20000, 20000], actor=admin)
    before = Division.objects.get(pk=division.pk).standings_version
    preview = preview_of(league, admin, csv_bytes([HEADER[:2], ["M002", "AAA First Now"]]))
    roster.roster_import_confirm(preview=preview, actor=admin)
    assert Division.objects.get(pk=division.pk).standings_version > before
    assert Player.objects.get(membership_number="M002").display_name == "AAA First Now"
    assert Standing.objects.filter(division=division).count() == 4


def test_name_order_in_words(league, admin, season):
    data = csv_bytes(
        [
            ["Member No", "Family name", "Given name", "Name order"],
            ["O-1", "Smith", "Ann", "Family first"],
            ["O-2", "Li", "Wei", "名が先"],
            ["O-3", "X", "Y", "sideways"],
        ]
    )
    rows = by_line(preview_of(league, admin, data))
    assert rows[2]["values"]["name_order"] == "family_first" and rows[2]["values"]["display_name"] == "Smith Ann"
    assert rows[3]["values"]["name_order"] == "given_first"
    assert rows[4]["outcome"] == "error" and "family name first or given name first" in rows[4]["errors"][0]


def test_previews_are_throttled_per_league(page, league, settings):
    settings.THROTTLE_LIMITS = {"roster_import_league": (2, 3600)}
    data = csv_bytes([HEADER[:2], ["T-1", "T"]])
    for _ in range(2):
        assert page.post(import_url(league), {"action": "preview", "file": upload(data)}).status_code == 302
    response = page.post(import_url(league), {"action": "preview", "file": upload(data)})
    assert response.status_code == 429 and response["Retry-After"]
    assert RosterImport.objects.count() == 2


def test_xlsx_rows_keep_the_sheets_numbers_across_blank_rows(league, admin, season):
    data = xlsx_bytes([["Member No", "Name"], ["K-1", "One"], [None, None], [None, None], ["", "No Number"]])
    rows = preview_of(league, admin, data, "roster.xlsx").rows
    assert [(r["line"], r["outcome"]) for r in rows] == [(5, "error"), (2, "new")]


def test_api_patch_with_a_blank_number_says_give_a_number(as_user, admin, league, players, season):
    response = as_user(admin).patch(
        f"/api/leagues/{league.slug}/members/{players[0].pk}/", {"membership_number": " "}, format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "membership_number"
    assert "give a number" in response.json()["detail"]
