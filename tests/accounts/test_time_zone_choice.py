"""The time zone is a choice of the IANA zones, not free text: on the settings page and at
sign-up, where the browser's zone is proposed (issue 19). The server checks what comes back;
the model keeps its plain field (no migration)."""

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.forms import listed_time_zones
from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def signup(**extra: str) -> Any:
    data = {
        "username": "nina",
        "email": "nina@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }
    return Client().post(reverse("account_signup"), data)


def test_the_sign_up_page_offers_the_zones_and_proposes_the_browser_s() -> None:
    page = Client().get(reverse("account_signup")).content.decode()
    select = re.search(r'<select name="time_zone"[^>]*>', page)
    assert select, "no time zone select on the sign-up page"
    assert 'data-browser-zone="propose"' in select.group(0)
    assert '<option value="Europe/Moscow">Moscow, Russia</option>' in page
    assert '<option value="UTC" selected>UTC</option>' in page
    assert "accounts/time_zone.js" in page


def test_sign_up_keeps_the_chosen_zone_and_refuses_one_that_is_not() -> None:
    assert signup(time_zone="Asia/Vladivostok").status_code == 302
    assert User.objects.get(username="nina").time_zone == "Asia/Vladivostok"
    refused = signup(username="olga", email="olga@example.com", time_zone="Mars/Olympus")
    assert refused.status_code == 200
    assert "Choose a time zone from the list." in refused.content.decode()
    assert not User.objects.filter(username="olga").exists()


def test_the_settings_page_is_a_select_and_keeps_an_old_zone_the_list_leaves_out() -> None:
    user = UserFactory(time_zone="US/Eastern")  # typed in before the list (a legacy alias)
    assert "US/Eastern" not in listed_time_zones()
    client = Client()
    client.force_login(user)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert re.search(r'<select name="time_zone"', page)
    assert '<option value="US/Eastern" selected>New York, United States</option>' in page
    data = {"language": "en", "confirm_moves": "correspondence", "display_name": ""}
    assert (
        client.post(reverse("notifications:settings"), {**data, "time_zone": "Europe/Berlin"}).status_code
        == 302
    )
    user.refresh_from_db()
    assert user.time_zone == "Europe/Berlin"
    refused = client.post(reverse("notifications:settings"), {**data, "time_zone": "Berlin"})
    assert refused.status_code in (200, 400)
    user.refresh_from_db()
    assert user.time_zone == "Europe/Berlin"


def test_the_zones_are_named_and_grouped_in_the_readers_language() -> None:
    """Babel's (CLDR) names: «Москва, Россия» under «Европа» on a Russian page, never the IANA key;
    the label is in the case of every other label ("Time zone", not "time zone")."""
    client = Client(headers={"Accept-Language": "ru"})
    client.force_login(UserFactory(language="ru", time_zone="Europe/Moscow"))
    page = client.get(reverse("notifications:settings")).content.decode()
    select = page.split('<select name="time_zone"', 1)[1].split("</select>", 1)[0]
    assert '<optgroup label="Европа">' in select
    assert '<option value="Europe/Moscow" selected>Москва, Россия</option>' in select
    assert '<option value="America/New_York">Нью-Йорк, Соединенные Штаты</option>' in select
    assert not re.search(r">[A-Z][a-z]+/[A-Za-z_]+<", select)  # no "Europe/Moscow" shown
    labels = re.findall(r"<label[^>]*>([^<]+)</label>", page)
    assert "Часовой пояс:" in labels
    assert [label for label in labels if label[:1].islower()] == []
    english = Client()
    english.force_login(UserFactory(language="en"))
    labels = re.findall(
        r"<label[^>]*>([^<]+)</label>", english.get(reverse("notifications:settings")).content.decode()
    )
    assert "Time zone:" in labels and [label for label in labels if label[:1].islower()] == []
