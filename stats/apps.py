from django.apps import AppConfig

from games import hooks


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "stats and ratings"

    def ready(self) -> None:
        from .selectors import ratings_of
        from .services import game_finished

        # Games sits below stats: the finishing move's transaction counts the game (``games.hooks``).
        hooks.game_finished.register(game_finished)
        # A game's rating range (``games.limits``) asks for the player's ratings.
        hooks.ratings_of.register(ratings_of)
