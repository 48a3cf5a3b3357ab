"""gunicorn's settings for this site: gunicorn reads ./gunicorn.conf.py when started in this
folder (the README's production command), or give it ``-c path/to/gunicorn.conf.py``.

Whose ``X-Forwarded-For`` to believe: the proxies in ``TRUSTED_PROXIES`` (the environment or
``.env``, as the site's settings read it), none by default. gunicorn's own default trusts
127.0.0.1 and ::1, and the uvicorn worker hands that list to uvicorn, which then rewrites the
client's address from the header before Django sees it: anyone on the machine could pick a new
address for each request and so slip past every per-address limit. ``durak_site.addresses``
has the rest of the story.
"""

import sys
from pathlib import Path

import environ

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # the `gunicorn` script's own folder comes first, not this one
    sys.path.insert(0, str(ROOT))

from durak_site.addresses import trusted_proxies  # noqa: E402

_env = environ.Env()
if (ROOT / ".env").is_file():
    _env.read_env(ROOT / ".env")

# An empty list trusts nobody: the connection's address is the client's.
forwarded_allow_ips = proxy_allow_ips = ",".join(trusted_proxies(_env))
