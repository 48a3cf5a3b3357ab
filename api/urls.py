from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import relations, tokens, tournaments, views, waits

app_name = "api"

urlpatterns = [
    path("auth/token/", tokens.TokenView.as_view(), name="token"),
    path("tokens/", tokens.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:token_id>/", tokens.TokenDetailView.as_view(), name="token_detail"),
    path("tokens/revoke-all/", tokens.TokenRevokeAllView.as_view(), name="tokens_revoke_all"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/privacy/", relations.PrivacyView.as_view(), name="privacy"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/join/", views.GameJoinView.as_view(), name="join"),
    path("games/<int:game_id>/leave/", views.GameLeaveView.as_view(), name="leave"),
    path("games/<int:game_id>/start/", views.GameStartView.as_view(), name="start"),
    path("games/<int:game_id>/actions/", views.GameActionView.as_view(), name="actions"),
    path("games/<int:game_id>/resign/", views.GameResignView.as_view(), name="resign"),
    path("games/<int:game_id>/claim/", views.GameClaimView.as_view(), name="claim"),
    path("games/<int:game_id>/rematch/", views.RematchOfferView.as_view(), name="rematch_offer"),
    path("games/<int:game_id>/rematch/accept/", views.RematchAcceptView.as_view(), name="rematch_accept"),
    path("games/<int:game_id>/rematch/decline/", views.RematchDeclineView.as_view(), name="rematch_decline"),
    path("games/<int:game_id>/moves/", views.GameMovesView.as_view(), name="moves"),
    path("games/<int:game_id>/wait/", waits.game_wait, name="wait"),  # asynchronous: holds no worker
    path("friends/", relations.FriendListView.as_view(), name="friends"),
    path("friends/<str:username>/", relations.FriendDetailView.as_view(), name="friend"),
    path("friend-requests/", relations.FriendRequestListView.as_view(), name="friend_requests"),
    path(
        "friend-requests/<int:request_id>/",
        relations.FriendRequestDetailView.as_view(),
        name="friend_request",
    ),
    path(
        "friend-requests/<int:request_id>/accept/",
        relations.FriendRequestAcceptView.as_view(),
        name="friend_request_accept",
    ),
    path(
        "friend-requests/<int:request_id>/decline/",
        relations.FriendRequestDeclineView.as_view(),
        name="friend_request_decline",
    ),
    path("blocks/", relations.BlockListView.as_view(), name="blocks"),
    path("blocks/<str:username>/", relations.BlockDetailView.as_view(), name="block"),
    path("notes/<str:username>/", relations.NoteView.as_view(), name="note"),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", tournaments.TournamentDetailView.as_view(), name="tournament"),
    path(
        "tournaments/<int:tournament_id>/register/",
        tournaments.TournamentRegisterView.as_view(),
        name="tournament_register",
    ),
    path(
        "tournaments/<int:tournament_id>/unregister/",
        tournaments.TournamentUnregisterView.as_view(),
        name="tournament_unregister",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        tournaments.TournamentWithdrawView.as_view(),
        name="tournament_withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/standings/",
        tournaments.TournamentStandingsView.as_view(),
        name="tournament_standings",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/",
        tournaments.TournamentRoundsView.as_view(),
        name="tournament_rounds",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its script from a URL of its own, not inline: the CSP allows only files.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/swagger_ui.html"),
        name="docs",
    ),
    re_path(r"", views.not_found),
]
