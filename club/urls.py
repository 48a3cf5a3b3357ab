from django.urls import path

from . import views

app_name = "club"

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("friends/blocked/", views.blocked, name="blocked"),
    path("friends/request/", views.request_send, name="request_send"),
    path("friends/requests/<int:request_id>/accept/", views.request_accept, name="request_accept"),
    path("friends/requests/<int:request_id>/decline/", views.request_decline, name="request_decline"),
    path("friends/requests/<int:request_id>/cancel/", views.request_cancel, name="request_cancel"),
    path("friends/remove/", views.friend_remove, name="remove"),
    path("friends/block/", views.block, name="block"),
    path("friends/unblock/", views.unblock, name="unblock"),
]
