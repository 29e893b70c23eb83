"""After a busiest-hour run: every write stored exactly once, every derived figure equal to a recompute.

    DATABASE_URL=... .venv/bin/python bench/busiest_check.py MANIFEST.json ACKS.jsonl

Run by bench/busiest_hour.py once the load has stopped and the Celery queue is empty. ACKS is
the load's log of the writes the server acknowledged (bench/locustfile_busiest.py). Checks,
reading only (nothing is repaired):

- each table: as many reports, versions, confirmed seats and audit entries as were acknowledged
  (one report, one version), and its game's result (the reported scores) exactly when all four
  seats are in;
- each league's admin: one result and one ``game_result.*`` audit entry per result acknowledged,
  none for a game not acknowledged; the hand-by-hand game's hands each once (sequences 1..N,
  one ``hand.add`` entry each) and its result exactly when the finish was acknowledged;
- derived rows against the full recompute (ratings.reconcile's read-only checks): every seat's
  settlement, every division's standings and season-page summary, every league's ratings;
- the statistics of the leagues written to against ``stats_recompute`` (run inside a
  transaction that is rolled back).

Prints what differs; exits 1 when anything does.
"""

from __future__ import annotations

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from kyoku.principals import System  # noqa: E402

BENCH = System("command:bench")


def acks_read(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def writes_check(manifest: dict, acks: list[dict]) -> tuple[list[str], int, int]:
    """Each acknowledged write stored once, nothing stored that was not sent, nothing twice. A
    write sent but never answered (the run ended, or the client gave up on it) may be stored or
    not, as it would be for a phone that lost its signal: its app resends it with the same
    Idempotency-Key. Returns what differs, how many acknowledged writes were checked, and how many
    sent writes went unanswered."""
    from collections import Counter

    from events.models import TableReport, TableReportVersion
    from kyoku.models import AuditLog, League
    from league.models import GameResult
    from scoring.models import HandRecord

    wrong: list[str] = []
    by = Counter((a["kind"], a["game"]) for a in acks if not a.get("sent"))
    tried = Counter((a["kind"], a["game"]) for a in acks if a.get("sent"))
    unanswered = sum(tried.values()) - sum(by.values())
    for t in manifest["event"]["tables"]:
        game = t["game"]
        reports, confirms = by[("table report", game)], by[("table confirm", game)]
        report = TableReport.objects.filter(game_id=game).first()
        if report is None:
            if reports:
                wrong.append(f"table {t['table']}: reported (acknowledged) but no report stored")
            continue
        # stored but unanswered: counted as acknowledged when sent (the seat's app would resend it)
        if not reports and tried[("table report", game)]:
            reports = 1
        confirms = max(confirms, min(tried[("table confirm", game)], len(report.confirmed_seats) - 1))
        versions = TableReportVersion.objects.filter(report=report).count()
        audits = {
            a: AuditLog.objects.filter(action=a, object_id=str(report.pk), object_type="events.tablereport").count()
            for a in ("event.table_report", "event.table_confirm")
        }
        result = GameResult.objects.filter(game_id=game).first()
        complete = reports == 1 and confirms == 3
        if (
            versions != 1
            or reports != 1
            or len(report.confirmed_seats) != 1 + confirms
            or audits != {"event.table_report": 1, "event.table_confirm": confirms}
            or (result is not None) != complete
            or (complete and list(result.scores) != manifest["scores"][0])
        ):
            wrong.append(
                f"table {t['table']}: acknowledged {reports} report(s) and {confirms} confirmation(s); stored "
                f"{versions} version(s), seats {report.confirmed_seats}, {report.status}, audit {audits}, "
                f"result {result and result.scores}"
            )
    for league in manifest["leagues"]:
        for i, game in enumerate(league["results"]):
            results = list(GameResult.objects.filter(game_id=game))
            audits = AuditLog.objects.filter(
                action__startswith="game_result.",
                object_type="league.gameresult",
                object_id__in=[r.pk for r in results],
            ).count()
            want = manifest["scores"][i % len(manifest["scores"])]
            n = by[("result", game)]
            if not n and tried[("result", game)] and results:
                n = 1  # sent, stored, its answer lost when the run ended
            if n > 1 or len(results) != n or audits != n or (n and list(results[0].scores) != want):
                wrong.append(f"{league['slug']} game {game}: {n} acknowledged, {len(results)} stored, {audits} audited")
        game = league["by_hand"]
        hands = list(HandRecord.objects.filter(game_id=game).values_list("sequence", flat=True))
        league_id = League.objects.get(slug=league["slug"]).pk
        adds = AuditLog.objects.filter(action="hand.add", league_id=league_id).count()
        n = by[("hand", game)]
        if n < len(hands) <= tried[("hand", game)]:
            n = len(hands)  # the last ones sent, stored, their answers lost when the run ended
        if sorted(hands) != list(range(1, n + 1)) or adds != n:
            wrong.append(
                f"{league['slug']} hand-by-hand game: {n} hands acknowledged, stored {sorted(hands)}, {adds} audited"
            )
        finished = GameResult.objects.filter(game_id=game).exists()
        if finished != bool(by[("hand-game finish", game)]) and not (finished and tried[("hand-game finish", game)]):
            wrong.append(
                f"{league['slug']} hand-by-hand game: finish acknowledged {by[('hand-game finish', game)]}, result {finished}"
            )
    return wrong, sum(by.values()), unanswered


def derived_check() -> list[str]:
    from kyoku.models import League
    from league.models import Division
    from league.models import DivisionSummary
    from league.summary import division_summary_rows
    from league.services import SUMMARY_FIELDS
    from ratings.reconcile import division_seats_stale, division_standings_stale, league_ratings_disagreement

    wrong = []
    for division in Division.objects.select_related("season__league"):
        stale = division_seats_stale(division=division)
        if stale:
            wrong.append(f"{division.season.league.slug} {division}: {len(stale)} seats' settlements stale")
        if division_standings_stale(division=division):
            wrong.append(f"{division.season.league.slug} {division}: standings differ from the recompute")
        want = division_summary_rows(season_id=division.season_id, division_ids=[division.pk])[division.pk]
        have = DivisionSummary.objects.filter(division=division).values(*SUMMARY_FIELDS).first()
        if have != {k: want[k] for k in SUMMARY_FIELDS}:
            wrong.append(f"{division.season.league.slug} {division}: summary {have} != {want}")
    for league in League.objects.all():
        since, _players = league_ratings_disagreement(league=league)
        if since is not None:
            wrong.append(f"{league.slug}: ratings differ from the replay from {since}")
    return wrong


def _plain(value: object) -> str:
    """A figure as text: a decimal without its trailing zeros (10.0 and 10 are one figure)."""
    from decimal import Decimal

    return format(value.normalize(), "f") if isinstance(value, Decimal) else str(value)


def stats_check(manifest: dict, acks: list[dict]) -> list[str]:
    from django.db import transaction

    from kyoku.models import League
    from stats.models import PlayerGameStats, PlayerStats, ScopeStats
    from stats.services import stats_recompute

    def snapshot(league: League) -> dict:
        out = {}
        for model in (PlayerGameStats, PlayerStats, ScopeStats):
            # the figures, not the row's id nor its version (a random token the rebuild renews)
            fields = [f.attname for f in model._meta.concrete_fields if f.attname not in ("id", "version")]
            rows = model.objects.filter(league=league).values_list(*fields)
            out[model.__name__] = sorted(json.dumps(row, sort_keys=True, default=_plain) for row in rows)
        return out

    wrong = []
    written = {a["league"] for a in acks if "league" in a}
    for entry in [e for e in manifest["leagues"] if e["slug"] in written]:
        league = League.objects.get(slug=entry["slug"])
        with transaction.atomic():
            before = snapshot(league)
            stats_recompute(actor=BENCH, league=league)
            after = snapshot(league)
            transaction.set_rollback(True)
        for name in before:
            if before[name] != after[name]:
                diff = len(set(before[name]) ^ set(after[name]))
                wrong.append(f"{entry['slug']}: {name} differs from stats_recompute ({diff} rows)")
    return wrong


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    manifest = json.load(open(sys.argv[1]))
    acks = acks_read(sys.argv[2])
    wrong, n, unanswered = writes_check(manifest, acks)
    print(
        f"{n} acknowledged writes, each stored exactly once and nothing else stored: {'yes' if not wrong else 'NO'}"
        + (f" ({unanswered} sent but unanswered when the run ended: stored at most once)" if unanswered else "")
    )
    derived = derived_check()
    print(f"settlements, standings, summaries and ratings equal a recompute: {'yes' if not derived else 'NO'}")
    stats = stats_check(manifest, acks)
    print(f"statistics equal stats_recompute: {'yes' if not stats else 'NO'}")
    for line in (wrong + derived + stats)[:30]:
        print("  " + line)
    sys.exit(1 if wrong or derived or stats else 0)


if __name__ == "__main__":
    main()
