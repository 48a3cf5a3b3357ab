"""The test settings for a site served in a subprocess to a real browser (``test_live_stream``):
whitenoise serves the static files from the apps' folders, as the live server of the other
browser tests does, so the pages get their scripts without a ``collectstatic``."""

from durak_site.test_settings import *  # noqa: F403

WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
