"""Names for choice sets that several fields share (``SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]``)."""

import durak

FIRST_ATTACKER_CHOICES = next(
    option["choices"] for option in durak.Rules.describe_options() if option["name"] == "first_attacker"
)
