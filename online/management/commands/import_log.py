"""manage.py import_log FILE… [--game ID --user NAME] [--override REASON]

Without --game: read each record and settle it through the engine (Tenhou rules), printing hand
by hand where it disagrees. With --game (one file): import it into that league game, as the
upload page does (names must be linked to players already)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from kyoku.principals import System
from league.models import Game
from online import services
from online.tenhou import TenhouError, game_check, parse_record


class Command(BaseCommand):
    help = "Check Tenhou records against the riichi engine, or import one into a league game."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+")
        parser.add_argument("--game", type=int)
        parser.add_argument("--user", help="the admin the import is recorded under (default: the command itself)")
        parser.add_argument("--override", default="", help="import even if the record disagrees, for this reason")
        parser.add_argument(
            "--keep",
            choices=["hands", "result"],
            default="hands",
            help="what the league keeps: every hand (default) or the final scores only",
        )

    def handle(self, files, game=None, user=None, override="", keep="hands", **options):
        if game is not None and len(files) != 1:
            raise CommandError("--game takes exactly one file")
        failed = 0
        for name in files:
            try:
                data = Path(name).read_bytes()
            except OSError as exc:
                raise CommandError(f"{name}: {exc.strerror or exc}") from None
            if game is None:
                failed += not self._check(name, data)
            else:
                self._import(name, data, game, user, override, keep)
        if failed:
            raise CommandError(f"{failed} record(s) disagree with the engine")

    def _check(self, name, data) -> bool:
        try:
            record = parse_record(data, Path(name).name)
        except TenhouError as exc:
            self.stdout.write(f"{name}: refused: {services.tenhou_message(exc)}")
            return False
        check = game_check(record)
        for h in check["hands"]:
            if not h["ok"]:
                self.stdout.write(f"  {h['label']}: record {h['expected']} engine {h['engine'] or h['error']}")
        verdict = "agrees" if check["ok"] else "DISAGREES"
        self.stdout.write(f"{name}: {len(record.hands)} hands, final {check['final']['scores_engine']}: {verdict}")
        return check["ok"]

    def _import(self, name, data, game_id, username, override, keep):
        # Shell access is trusted: without --user the import is the command's own act (audited as such).
        user = get_user_model().objects.filter(username=username).first() if username else None
        if username and user is None:
            raise CommandError(f"no user {username}")
        actor = user if user is not None else System("command:import_log")
        game = Game.objects.select_related("season__rule_set").filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"no game {game_id}")
        try:
            imported = services.game_import(
                game=game, data=data, filename=Path(name).name, actor=actor, override_reason=override, keep=keep
            )
        except ValidationError as exc:
            raise CommandError(f"{name}: {'; '.join(f'{k}: {v[0]}' for k, v in exc.message_dict.items())}") from None
        self.stdout.write(
            f"{name}: imported into game {game.pk}: {len(imported.comparison['hands'])} hands, "
            f"{'agrees' if imported.agreed else 'overridden'}"
        )
