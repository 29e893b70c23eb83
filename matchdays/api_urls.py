from django.urls import include, path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("matchdays", api.MatchDayViewSet, basename="matchday-api")

urlpatterns = [path("", include(router.urls))]
