from rest_framework.permissions import SAFE_METHODS, BasePermission

from league import roles


class IsLeagueAdminOrReadOnly(BasePermission):
    message = "Only a league admin may change this."

    def has_permission(self, request, view):
        return request.method in SAFE_METHODS or roles.is_admin(request.user)


class IsLeagueAdmin(BasePermission):
    message = "Only a league admin may do this."

    def has_permission(self, request, view):
        return roles.is_admin(request.user)


class IsRefereeOrReadOnly(BasePermission):
    message = "Only a referee may change this."

    def has_permission(self, request, view):
        return request.method in SAFE_METHODS or roles.is_referee(request.user)
