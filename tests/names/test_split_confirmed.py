"""Issue 50 §2: a split is "confirmed" only when a person confirmed both parts. Setting only its
order confirms nothing, an empty part is never confirmed, and the migration forgets every
confirmation stored with an empty part; such players stay on the desk's list."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.test import Client

from events import selectors
from league.models import LeagueMembership, Player
from league.names import FAMILY_FIRST, GIVEN_FIRST, split_after_edit
from league.services import player_name_confirm, player_name_edited
from league.services.roster import member_edit
from tests.events.conftest import event, field, rules, running  # noqa: F401  (fixtures)


@pytest.mark.parametrize(
    "changed, family, given, after",
    [
        (["name_order"], "", "", "unconfirm"),  # the order alone, parts empty: the case
        (["name_order"], "Chan", "Tai Man", "unconfirm"),  # a new order is not a check of the parts
        (["family_name"], "Chan", "", "unconfirm"),  # one part written, the other empty
        (["family_name", "given_name", "name_order"], "Chan", "Tai Man", "confirm"),
        (["given_name"], "Chan", "Tai Man", "confirm"),
        (["display_name"], "Chan", "Tai Man", "unconfirm"),
        (["tenhou_id"], "", "", None),
    ],
)
def test_what_an_edit_does_to_the_confirmation(changed, family, given, after):
    assert split_after_edit(changed, family, given) == after


def test_confirming_refuses_an_empty_part_naming_it(field, admin):
    player = field[0]
    player.family_name, player.given_name, player.name_order = "", "", FAMILY_FIRST
    player.save()
    with pytest.raises(ValidationError) as refused:
        player_name_confirm(player=player, actor=admin)
    assert "family_name" in refused.value.message_dict
    player.family_name = "Player"
    player.save()
    with pytest.raises(ValidationError) as refused:
        player_name_confirm(player=player, actor=admin)
    assert "given_name" in refused.value.message_dict
    player.refresh_from_db()
    assert player.name_confirmed_at is None


def test_setting_only_the_order_on_the_member_page_leaves_the_player_listed(running, field, admin):
    player = field[5]
    membership, _ = LeagueMembership.objects.get_or_create(
        league=running.league, player=player, defaults={"via": "admin"}
    )
    assert player.pk in [p["pk"] for p in selectors.names_unconfirmed(running)]
    member_edit(membership=membership, values={"name_order": FAMILY_FIRST}, actor=admin)
    player.refresh_from_db()
    assert player.name_order == FAMILY_FIRST and player.name_confirmed_at is None
    assert player.pk in [p["pk"] for p in selectors.names_unconfirmed(running)]

    member_edit(membership=membership, values={"family_name": "Player", "given_name": "Ev 05"}, actor=admin)
    player.refresh_from_db()
    assert player.name_confirmed_at is not None  # both parts written: the editor's confirmation
    assert player.pk not in [p["pk"] for p in selectors.names_unconfirmed(running)]

    member_edit(membership=membership, values={"name_order": GIVEN_FIRST}, actor=admin)
    player.refresh_from_db()
    assert player.name_confirmed_at is None  # a new order is a new split nobody checked


def test_the_admin_action_confirms_only_players_with_both_parts(field, admin):
    from django.contrib.auth import get_user_model

    operator = get_user_model().objects.create_superuser("operator", "op@example.org", "operator-pass-123")
    Player.objects.filter(pk=field[0].pk).update(family_name="Player", given_name="Ev 00")
    Player.objects.filter(pk=field[1].pk).update(family_name="", given_name="", name_order=FAMILY_FIRST)
    client = Client()
    client.force_login(operator)
    response = client.post(
        "/admin/league/player/",
        {"action": "name_split_confirm", "_selected_action": [field[0].pk, field[1].pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "1 name split confirmed." in page and "a part is empty" in page and "Ev Player 01" in page
    confirmed = set(Player.objects.filter(name_confirmed_at__isnull=False).values_list("pk", flat=True))
    assert confirmed == {field[0].pk}


def test_the_migration_unconfirms_splits_with_an_empty_part(field, admin):
    from django.utils import timezone

    now = timezone.now()
    Player.objects.filter(pk=field[0].pk).update(family_name="Player", given_name="Ev 00", name_confirmed_at=now)
    Player.objects.filter(pk=field[1].pk).update(family_name="", given_name="", name_confirmed_at=now)
    Player.objects.filter(pk=field[2].pk).update(family_name="Player", given_name="", name_confirmed_at=now)
    migration = importlib.import_module("league.migrations.0019_name_split_unconfirm_empty")
    migration.empty_splits_unconfirm(apps, None)
    confirmed = set(Player.objects.filter(name_confirmed_at__isnull=False).values_list("pk", flat=True))
    assert confirmed == {field[0].pk}


def test_a_name_edit_in_the_admin_without_parts_unconfirms(field, admin):
    player = field[6]
    Player.objects.filter(pk=player.pk).update(family_name="Player", given_name="Ev 06")
    player.refresh_from_db()
    player_name_confirm(player=player, actor=admin)
    player_name_edited(player=player, actor=admin, changed=["name_order"])
    player.refresh_from_db()
    assert player.name_confirmed_at is None
