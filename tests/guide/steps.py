"""The guide's steps, one screenshot each (docs/guide/img/<image>): who takes the step, the page
it is taken on (``{name}`` filled from the demo: tests/guide/test_guide_pictures.py ``demo_ids``),
the words the page must show, and what the person does there before the picture.

Kept free of Django imports: tests/guide/test_guide_links.py reads it to know which pictures a
step produces."""

from __future__ import annotations

from dataclasses import dataclass

# The demo's logins (README): who -> (username, password); "anonymous" signs in as nobody.
LOGINS = {
    "admin": ("admin", "kyoku-admin"),
    "referee": ("referee", "kyoku-referee"),
    "director": ("director", "kyoku-director"),
    "player": ("player", "kyoku-player"),
    "newmember": ("newmember", "kyoku-newmember"),
    "anonymous": None,
}
DIRECTOR_TOTP_SECRET = "KYOKUDEMODIRECTORTOTPSECRET23456"


@dataclass(frozen=True)
class Step:
    image: str  # file name under docs/guide/img/
    who: str  # a key of LOGINS
    path: str  # the page, with {placeholders} from the demo
    expect: str  # words the page shows (a page changed past recognition fails the walk)
    show: str = ""  # a selector scrolled into view before the picture
    act: str = ""  # an action of the walk (ACTIONS in test_guide_pictures.py) done first
    phone: bool = False  # a 390 px phone's picture instead of a 1280 x 800 desktop's
    lang: str = "en"  # the language the pages are read in (Django's language code)
    says: tuple[str, ...] = ()  # the buttons and links the guide's text names on this page


CHAPTERS: dict[str, list[Step]] = {
    "league-admin": [
        Step("admin-01-start-a-league.png", "admin", "/leagues/new/", "WRC"),
        Step("admin-01b-league-form.png", "admin", "/leagues/new/?preset=wrc", "Divisions", act="fill_league"),
        Step(
            "admin-02-league-page.png",
            "admin",
            "/leagues/hkrl/",
            "Hong Kong Riichi League",
            says=("Run the league", "Season office"),
        ),
        Step("admin-03-roles.png", "admin", "/leagues/hkrl/roles/", "Invite"),
        Step("admin-04-roster.png", "admin", "/leagues/hkrl/members/", "Chan Tai Man"),
        Step("admin-05-roster-import.png", "admin", "/leagues/hkrl/members/import/", "Import"),
        Step("admin-06-claims.png", "admin", "/leagues/hkrl/claims/", "HK0005"),
        Step("admin-07-tiers.png", "admin", "/leagues/hkrl/tiers/", "1A"),
        Step("admin-08-open-registration.png", "admin", "/office/seasons/{krc_next}/", "Open registration"),
        Step(
            "admin-09-season-office.png",
            "admin",
            "/office/seasons/{season}/",
            "Season office",
            says=("Close the season", "Create the next season", "Add or remove entries", "Preview who moves"),
        ),
        Step("admin-10-entries.png", "admin", "/office/seasons/{season}/entries/", "A Division"),
        Step(
            "admin-11-review.png",
            "admin",
            "/review/applications/",
            "Qualification review queue",
            says=("Approve", "Reject"),
        ),
        Step(
            "admin-12-match-days.png",
            "admin",
            "/seasons/{season}/matchdays/",
            "Add a match day",
            says=("Add the match day",),
        ),
        Step("admin-13-seating.png", "admin", "/matchdays/{matchday}/", "Publish", says=("Print sheet",)),
        Step(
            "admin-14-game.png",
            "admin",
            "/games/{game_open}/",
            "Enter the result",
            says=("Score hand by hand", "Import a Tenhou record"),
        ),
        Step("admin-15-result-entry.png", "admin", "/games/{game_open}/result/", "Enter the result"),
        Step("admin-16-scorekeeper.png", "admin", "/scoring/games/{game_open}/scorekeeper/", "Scorekeeper", phone=True),
        Step("admin-17-standings.png", "admin", "/seasons/{season}/divisions/A/", "Standings"),
        Step("admin-18-correction.png", "admin", "/games/{game_done}/result/", "Save result"),
        Step("admin-19-audit.png", "admin", "/seasons/{season}/audit/", "Audit"),
        Step("admin-20-season-rules.png", "admin", "/scoring/seasons/{season}/rules/", "WRC"),
        Step("admin-21-promotion.png", "admin", "/office/seasons/{krc_done}/promotion/", "Promoted", says=("Confirm",)),
        Step(
            "admin-22-promotion-confirmed.png",
            "admin",
            "/office/seasons/{krc_done}/promotion/",
            "entries created",
            act="confirm_promotion",
        ),
    ],
    "referee": [
        Step(
            "referee-01-desk.png",
            "referee",
            "/referee/",
            "Referee dashboard",
            says=("Calls to a table", "Open incidents", "Appeals waiting for a decision", "New incident"),
        ),
        Step("referee-02-new-incident.png", "referee", "/referee/incidents/new/?game={game_open}", "Timeline"),
        Step("referee-03-incident.png", "referee", "/referee/incidents/{incident_open}/", "Timeline"),
        Step(
            "referee-04-proposed-ruling.png",
            "referee",
            "/referee/incidents/{incident_open}/",
            "Proposed ruling",
            show="text=Proposed ruling",
            says=("Confirm the ruling and issue penalties",),
        ),
        Step("referee-05-printable-ruling.png", "referee", "/referee/incidents/{incident_ruled}/print/", "Ruling"),
        Step("referee-06-player-rulings.png", "player", "/referee/mine/", "Incident"),
        Step(
            "referee-07-appeal.png",
            "referee",
            "/referee/incidents/{incident_appealed}/",
            "Appeal",
            show="text=Appeal >> nth=-1",
        ),
        Step("referee-08-catalogue.png", "referee", "/referee/leagues/{league}/catalogue/", "Penalty catalogue"),
        Step("referee-09-catalogue-edit.png", "admin", "/referee/leagues/{league}/catalogue/", "Save"),
        Step("referee-10-season-rulings.png", "referee", "/referee/seasons/{season}/rulings/", "Ruling"),
    ],
    "director": [
        Step(
            "director-01-events.png", "director", "/events/", "Tournaments", says=("New tournament", "Director's desk")
        ),
        Step("director-02-new-event.png", "director", "/events/new/", "New tournament"),
        Step("director-03-event.png", "director", "/events/{event}/", "Registration"),
        Step(
            "director-04-desk.png",
            "director",
            "/events/{event}/desk/",
            "Director's desk",
            says=("Seat the rounds not yet started", "Seat by standings", "Make the cut", "Extend"),
        ),
        Step(
            "director-05-check-in.png",
            "director",
            "/events/{event}/desk/",
            "present",
            show="h2:text-is('Registrations')",
            says=("Withdraw",),
        ),
        Step("director-06-seating-cards.png", "director", "/events/{event}/cards/", "Seat"),
        Step("director-07-table-signs.png", "director", "/events/{event}/signs/", "Table 1"),
        Step("director-08-table-code.png", "anonymous", "/events/{event}/code/", "code", phone=True),
        Step("director-09-board.png", "anonymous", "/events/{event}/board/", "HKRL Winter Open 2026"),
        Step("director-10-dispute.png", "director", "/events/tables/{table_disputed}/", "Disputed"),
        Step("director-11-wrong-codes.png", "director", "/events/{event}/codes/", "Wrong table codes"),
        Step("director-12-results.png", "director", "/events/{event_done}/results/", "Champion"),
        Step(
            "director-13-ema-file.png",
            "director",
            "/events/{event_done}/desk/",
            "EMA ranking file",
            says=("as a spreadsheet",),
        ),
    ],
    "player": [
        Step("player-01-sign-up.png", "anonymous", "/accounts/signup/", "Sign Up", phone=True),
        Step(
            "player-02-claim.png", "newmember", "/me/claim/", "Link my player", phone=True, says=("Create my player",)
        ),
        Step("player-03-new-player.png", "newmember", "/me/player/new/", "Create my player", phone=True),
        Step(
            "player-04-my-page.png", "player", "/me/", "My applications", says=("Download my data", "Close my account")
        ),
        Step(
            "player-05-apply.png", "player", "/me/", "Apply for a qualification", show="text=Apply for a qualification"
        ),
        Step(
            "player-06-table.png",
            "player",
            "/events/tables/{table_confirm}/",
            "Confirm as",
            phone=True,
            says=("Dispute and call a referee", "Report different scores"),
        ),
        Step(
            "player-07-table-confirmed.png",
            "player",
            "/events/tables/{table_confirm}/",
            "Reported result",
            act="confirm_table",
            phone=True,
        ),
        Step("player-08-player-page.png", "player", "/players/{player}/", "Chan Tai Man"),
        Step(
            "player-09-statistics.png",
            "player",
            "/players/{player}/statistics/",
            "Statistics",
            says=("League average",),
        ),
        Step("player-10-rulings.png", "player", "/referee/mine/", "Incident"),
        Step(
            "player-11-notifications.png",
            "player",
            "/me/notifications/",
            "HKRL Winter Open 2026",
            phone=True,
            says=("接收哪些通知、經哪裡接收",),
        ),
        Step("player-12-notification-settings.png", "player", "/me/notifications/settings/", "Email", phone=True),
        Step("player-13-install.png", "player", "/me/", "My applications", phone=True),
    ],
    # the player's chapter in Traditional Chinese (docs/guide/player.zh-Hant.md), read in zh-Hant
    "player-zh-hant": [
        Step("zh-player-01-sign-up.png", "anonymous", "/accounts/signup/", "註冊", phone=True, lang="zh-hant"),
        Step("zh-player-02-claim.png", "newmember", "/me/claim/", "連結我的選手", phone=True, lang="zh-hant"),
        Step("zh-player-03-my-page.png", "player", "/me/", "我的申請", lang="zh-hant"),
        Step("zh-player-04-apply.png", "player", "/me/", "申請聯賽資格", show="text=申請聯賽資格", lang="zh-hant"),
        Step(
            "zh-player-05-table.png",
            "player",
            "/events/tables/{table_confirm}/",
            "身份確認",
            phone=True,
            lang="zh-hant",
        ),
        Step(
            "zh-player-06-table-confirmed.png",
            "player",
            "/events/tables/{table_confirm}/",
            "已報結果",
            act="confirm_table",
            phone=True,
            lang="zh-hant",
        ),
        Step("zh-player-07-statistics.png", "player", "/players/{player}/statistics/", "統計", lang="zh-hant"),
        Step("zh-player-08-notifications.png", "player", "/me/notifications/", "我的通知", phone=True, lang="zh-hant"),
    ],
    "operator": [
        Step("operator-01-league-requests.png", "admin", "/leagues/requests/", "Sai Kung Riichi Club"),
        Step("operator-02-django-admin.png", "admin", "/admin/", "Site administration"),
        Step("operator-03-sends.png", "admin", "/leagues/hkrl/notifications/", "Send again"),
    ],
}


def images() -> set[str]:
    """Every picture a step produces."""
    return {step.image for steps in CHAPTERS.values() for step in steps}
