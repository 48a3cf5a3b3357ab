"""The notifications' real SMTP server (aiosmtpd), for the friend notifications' e-mails."""

from tests.notifications.conftest import smtp

__all__ = ["smtp"]
