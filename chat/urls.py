from django.urls import path

from . import views

app_name = "chat"

urlpatterns = [
    path("games/<int:game_id>/chat/", views.chat_log, name="log"),
    path("games/<int:game_id>/chat/post/", views.chat_post, name="post"),
]
