from . import roles as _roles


def roles(request):
    user = request.user
    return {
        "is_league_admin": _roles.is_admin(user),
        "is_referee": _roles.is_referee(user),
        "current_player": _roles.player_of(user),
    }
