"""Demo data for match days (called by league's seed_demo): two coming match days per division of
the open season, the first with a drafted seating to review, swap and publish."""

import datetime

from kyoku.principals import System
from league.models import Player

from . import services
from .models import Reserve, SeatingConstraint

SEED = System("command:seed_demo")


def seed_match_days(season, *, first_number: int, start: datetime.date) -> None:
    for division in season.divisions.all():
        for k in range(2):
            day = services.match_day_create(
                division=division,
                number=first_number + k,
                date=start + datetime.timedelta(weeks=2 * k),
                start_time=datetime.time(14, 0),
                venue="Wan Chai Community Hall 灣仔社區會堂",
                actor=SEED,
            )
            if k == 0:
                services.seating_generate(match_day=day, seed=1, actor=SEED)
    entered = season.entries.values_list("player_id", flat=True)
    a = list(season.entries.filter(division__code="A").order_by("player_id").values_list("player", flat=True))
    if len(a) >= 2:
        SeatingConstraint.objects.get_or_create(season=season, kind="apart", player_id=a[0], other_id=a[1])
    for i, player in enumerate(Player.objects.exclude(pk__in=entered).order_by("pk")[:2]):
        Reserve.objects.get_or_create(season=season, player=player, defaults={"order": i})
    have = Reserve.objects.filter(season=season).count()
    for i, (en, zh) in enumerate([("Reserve Ho", "何後備"), ("Reserve Lam", "林後備")][have:], start=have):
        p = Player.objects.create(display_name=en, native_name=zh, membership_number=f"HKR{i + 1:03d}")
        Reserve.objects.create(season=season, player=p, order=i)
