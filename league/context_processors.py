from kyoku import authz as _authz


def roles(request):
    user = request.user
    return {
        "is_league_admin": _authz.is_admin(user),
        "is_referee": _authz.is_referee(user),
        # an event director (or admin) of some league: the menus lead to the tournaments' desks
        "is_event_director": _authz.is_director(user),
        "current_player": _authz.player_of(user),
    }
