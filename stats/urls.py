from django.urls import path

from . import views

app_name = "stats"

urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("moderation/rating-farming/", views.farming, name="farming"),
]
