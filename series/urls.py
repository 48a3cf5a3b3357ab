from django.urls import path

from . import views

app_name = "series"

urlpatterns = [
    path("series/<int:series_id>/", views.series_detail, name="detail"),
    path("games/<int:game_id>/rematch/", views.rematch_panel, name="rematch"),
    path("games/<int:game_id>/rematch/offer/", views.rematch_offer, name="rematch_offer"),
    path("games/<int:game_id>/rematch/accept/", views.rematch_accept, name="rematch_accept"),
    path("games/<int:game_id>/rematch/decline/", views.rematch_decline, name="rematch_decline"),
]
