from django.urls import path

from . import views

app_name = "replays"

urlpatterns = [
    path("games/<int:game_id>/replay/", views.replay, name="replay"),
    path("games/<int:game_id>/export.json", views.export, name="export"),
]
