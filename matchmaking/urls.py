from django.urls import path

from . import views

app_name = "matchmaking"

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/leave/", views.leave, name="leave"),
    path("play/status/", views.status, name="status"),
]
