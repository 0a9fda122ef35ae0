from django.urls import path
from django.utils import timezone
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from tables import views

app_name = "tables"

# The catalog changes only when the site is deployed (its translations are files), so a
# browser may keep it until the process restarts: Django's own advice for this view.
CATALOG_CHANGED = timezone.now()

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="table_new"),
    path("<int:table_id>/", views.table_detail, name="table"),
    path("<int:table_id>/bots/", views.table_bots, name="table_bots"),
    path("<int:table_id>/me/", views.table_me, name="table_me"),
    path("<int:table_id>/panels/", views.table_panels, name="table_panels"),
    path("<int:table_id>/host/", views.table_host, name="table_host"),
    path("<int:table_id>/host/do/", views.table_host_action, name="table_host_action"),
    path(
        "<int:table_id>/host/forced-bets/",
        views.table_host_forced_bets,
        name="table_host_forced_bets",
    ),
    path("<int:table_id>/invite/<str:token>/", views.table_invite, name="table_invite"),
    path("<int:table_id>/ledger/", views.table_ledger, name="table_ledger"),
    path("<int:table_id>/ledger.csv", views.table_ledger_csv, name="table_ledger_csv"),
    path("hands/", views.hands, name="hands"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("hands/<int:hand_id>/phh/", views.hand_phh, name="hand_phh"),
    path("hands/<int:hand_id>/verify/", views.hand_verify, name="hand_verify"),
    # gettext() and interpolate() for static/tables/*.js.
    path(
        "jsi18n/",
        last_modified(lambda request, **kwargs: CATALOG_CHANGED)(JavaScriptCatalog.as_view()),
        name="jsi18n",
    ),
]
