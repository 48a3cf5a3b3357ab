from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player. Its own model from the first migration, so fields can be added later."""

    def __str__(self) -> str:
        return self.username
