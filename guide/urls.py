from django.urls import path

from . import views

app_name = "guide"

urlpatterns = [
    path("rules/", views.index, name="index"),
    path("rules/tutorial/", views.tutorial, name="tutorial"),
    path("rules/<slug:preset>/", views.preset, name="preset"),
]
