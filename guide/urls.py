from django.urls import path

from . import views

app_name = "guide"

urlpatterns = [
    path("rules/", views.index, name="index"),
    path("reliability/", views.reliability, name="reliability"),
    path("rules/tutorial/", views.tutorial, name="tutorial"),
    path("rules/<slug:preset>/", views.preset, name="preset"),
]
