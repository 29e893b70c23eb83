from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import APIRootView, DefaultRouter

from kyoku.access import PUBLIC, route
from kyoku.api_access import DeclaredAccess
from kyoku.auth_views import obtain_auth_token

from . import office as office_api, views


class RootView(APIRootView):
    access = route(GET=PUBLIC)


class SchemaView(SpectacularAPIView):
    permission_classes = [DeclaredAccess]  # the library's own default would bypass the declaration
    access = route(GET=PUBLIC)


class DocsView(SpectacularSwaggerSplitView):
    permission_classes = [DeclaredAccess]
    access = route(GET=PUBLIC)


class Router(DefaultRouter):
    APIRootView = RootView


router = Router()
router.register("players", views.PlayerViewSet)
router.register("rulesets", views.RuleSetViewSet)
router.register("seasons", views.SeasonViewSet, basename="season")
router.register("divisions", views.DivisionViewSet)
router.register("games", views.GameViewSet, basename="game")
router.register("tiers", views.TierViewSet)
router.register("applications", views.ApplicationViewSet, basename="application")
router.register("penalties", views.PenaltyViewSet, basename="penalty")

urlpatterns = [
    path("games/<int:pk>/result/", views.GameResultView.as_view(), name="game-result"),
    path("seasons/<int:pk>/next/", office_api.SeasonNextView.as_view(), name="api-season-next"),
    path("seasons/<int:pk>/open/", office_api.SeasonOpenView.as_view(), name="api-season-open"),
    path("seasons/<int:pk>/close/", office_api.SeasonCloseView.as_view(), name="api-season-close"),
    path("seasons/<int:pk>/reopen/", office_api.SeasonReopenView.as_view(), name="api-season-reopen"),
    path("seasons/<int:pk>/promotion/", office_api.SeasonPromotionView.as_view(), name="api-season-promotion"),
    path("seasons/<int:pk>/entries/", office_api.SeasonEntriesView.as_view(), name="api-season-entries"),
    path("seasons/<int:pk>/entries/<int:entry_id>/", office_api.SeasonEntryView.as_view(), name="api-season-entry"),
    path("seasons/<int:pk>/games/", office_api.SeasonGamesView.as_view(), name="api-season-games"),
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", DocsView.as_view(url_name="schema"), name="api-docs"),
    path("", include(router.urls)),
]
