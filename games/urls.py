from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.game_create, name="create"),
    path("games/open/", views.lobby_open_games, name="lobby_open"),
    path("games/<int:game_id>/", views.game_detail, name="detail"),
    path("games/<int:game_id>/poll/", views.game_poll, name="poll"),
    path("games/<int:game_id>/history/", views.game_history, name="history"),
    path("games/<int:game_id>/presence/", views.game_presence, name="presence"),
    path("games/<int:game_id>/move/", views.game_move, name="move"),
    path("games/<int:game_id>/join/", views.game_join, name="join"),
    path("games/<int:game_id>/leave/", views.game_leave, name="leave"),
    path("games/<int:game_id>/resign/", views.game_resign, name="resign"),
    path("games/<int:game_id>/claim/", views.game_claim, name="claim"),
    path("games/<int:game_id>/start/", views.game_start, name="start"),
    path("games/<int:game_id>/fill-with-bots/", views.game_fill_with_bots, name="fill_with_bots"),
    path("games/<int:game_id>/invite/", views.game_invite, name="invite"),
    path("games/<int:game_id>/join/<str:token>/", views.game_join_link, name="join_link"),
    path("games/turns/", views.turns_waiting, name="turns"),
    path("vacation/", views.vacation_take, name="vacation"),
]
