"""The settings page takes a display name and a language along with the time zone and the
notification preferences; the name shows on the profile, the language on every page."""

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_display_name_and_language_are_saved_and_used(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    page = client.get("/notifications/settings/").content.decode()
    assert 'name="display_name"' in page and 'name="language"' in page and 'name="time_zone"' in page
    response = client.post(
        "/notifications/settings/",
        {"display_name": "Tanya", "language": "ru", "time_zone": "Europe/Moscow", "confirm_moves": "always"},
    )
    assert response.status_code == 302
    user = User.objects.get(pk=user.pk)
    assert (user.display_name, user.language, user.time_zone) == ("Tanya", "ru", "Europe/Moscow")
    client.get(f"/players/{user.username}/")  # the first page after the change sets the language cookie
    profile = client.get(f"/players/{user.username}/")
    assert "<h1>Tanya" in profile.content.decode()
    assert '<html lang="ru"' in profile.content.decode()
    assert "Выйти" in client.get("/accounts/logout/").content.decode()  # allauth's own text, translated


def test_an_unknown_language_is_refused(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        "/notifications/settings/", {"language": "xx", "time_zone": "UTC", "confirm_moves": "never"}
    )
    assert response.status_code == 200 and User.objects.get(pk=user.pk).language == "en"
