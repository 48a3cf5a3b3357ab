from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("tokens/", views.api_tokens, name="api_tokens"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("notes/<str:username>/", views.note_save, name="note"),
]
