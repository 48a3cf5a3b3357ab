from django.urls import path

from . import views

app_name = "moderation"

urlpatterns = [
    path("new/", views.report_create, name="report"),
]
