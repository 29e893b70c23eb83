from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from kyoku.site import favicon

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", include("scoring.api_urls")),
    path("api/", include("referee.api_urls")),
    path("api/", include("ratings.api_urls")),
    path("api/", include("league.api.urls")),
    path("api/", include("matchdays.api_urls")),
    path("api/", include("online.api_urls")),
    path("referee/", include("referee.urls")),
    path("scoring/", include("scoring.urls")),
    path("", include("matchdays.urls")),
    path("", include("ratings.urls")),
    path("online/", include("online.urls")),
    path("", include("scoring.game_urls")),
    path("", include("league.urls")),
]
handler404 = "kyoku.site.page_not_found"
handler500 = "kyoku.site.server_error"
# No media URL: uploaded evidence is private (kyoku.uploads) and served only by authorized views.
