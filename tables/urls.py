from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="table_new"),
    path("<int:table_id>/", views.table_detail, name="table"),
    path("<int:table_id>/bots/", views.table_bots, name="table_bots"),
    path("hands/", views.hands, name="hands"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("hands/<int:hand_id>/phh/", views.hand_phh, name="hand_phh"),
    path("hands/<int:hand_id>/verify/", views.hand_verify, name="hand_verify"),
]
