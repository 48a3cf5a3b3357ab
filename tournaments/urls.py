from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_create, name="create"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:tournament_id>/register/", views.register, name="register"),
    path("tournaments/<int:tournament_id>/unregister/", views.unregister, name="unregister"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("tournaments/<int:tournament_id>/computer/", views.add_computer, name="add_computer"),
    path("tournaments/<int:tournament_id>/cancel/", views.cancel, name="cancel"),
]
