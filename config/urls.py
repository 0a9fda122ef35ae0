from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import JavaScriptCatalog

from series import views, views_health, views_pwa
from series.forms import LoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("director/", views.director_dashboard, name="director_dashboard"),
    path("health/", views_health.health, name="health"),
    # The installable site: at the root, the service worker's scope is the whole site.
    path("manifest.webmanifest", views_pwa.manifest, name="manifest"),
    path("sw.js", views_pwa.service_worker, name="service_worker"),
    path("series/", include("series.urls_series")),
    path("tables/", include("tables.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("i18n/setlang/", views.language_set, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]

admin.site.site_header = _("Poker series administration")
admin.site.site_title = _("Poker series admin")
