from django.urls import path

from . import views

app_name = "series"

urlpatterns = [
    path("series/<int:series_id>/", views.series_detail, name="detail"),
    path("games/<int:game_id>/play-again/", views.play_again, name="play_again"),
]
