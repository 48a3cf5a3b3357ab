"""Where a notification leads: the paths of the pages it links to, in one place.

Beneath the push, the services and the views (which all link); above nothing of the app.
"""

from django.urls import NoReverseMatch, reverse


def tournament_path(tournament_id: int) -> str:
    """The tournament's page: the URL named ``tournaments:detail`` once the site has it, else
    the path that page is to have (``/tournaments/<id>/``).

    >>> tournament_path(7)
    '/tournaments/7/'
    """
    try:
        return reverse("tournaments:detail", kwargs={"pk": tournament_id})
    except NoReverseMatch:
        return f"/tournaments/{tournament_id}/"


def game_path(game_id: int) -> str:
    return reverse("games:detail", args=[game_id])


def friends_path() -> str:
    return reverse("club:friends")
