"""Issue 50 loose end in the demo: the referee's inbox holds no application (the referee applied
for nothing); the sends page still shows one failed email, one the demo really sent."""

from __future__ import annotations

from kyoku.principals import SYSTEM
from notifications import services
from notifications.demo import notifications_seed
from notifications.models import Delivery, Notification
from tests.actors import make_user


def test_the_demo_tells_the_referee_nothing_about_an_application(db, league):
    player, referee, _admin = (make_user(name) for name in ("player", "referee", "admin"))
    referee.email = "referee@example.org"
    referee.save()
    call = services.notification_send(
        kind="referee_call",
        recipients=[referee],
        league=league,
        params={"league": services.league_words(league), "table": 3, "round": 1, "reason": "dispute"},
        actor=SYSTEM,
    )
    notifications_seed(league=league)
    assert not Notification.objects.filter(recipient=referee, kind="application_decided").exists()
    assert list(Notification.objects.filter(recipient=referee).values_list("kind", flat=True)) == ["referee_call"]
    failed = Delivery.objects.get(status=Delivery.Status.FAILED)
    assert failed.notification == call[0] and failed.channel == "email"
    assert failed.last_error == "SMTPRecipientsRefused: 550 5.1.1 <referee@example.org>: mailbox unavailable"
