"""Django's ``makemessages`` (``python3 dev.py messages``), which also finds the rules engine's
messages with a count: ``durak.ngettext_noop(singular, plural, count=...)`` is
extracted as a plural entry, so each language gives the form its numbers need."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
