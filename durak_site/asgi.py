"""The site as an ASGI application: what production serves (gunicorn with uvicorn workers,
``gunicorn durak_site.asgi:application -k uvicorn_worker.UvicornWorker``) and what
``python3 dev.py serve`` runs (uvicorn, from the ``Procfile``).

Under ASGI a request that waits (the API's long poll, ``api.waits``) waits on the event loop
and holds no worker: the other requests of the process go on meanwhile. Django runs each
request's synchronous code (most views and middleware) in a thread of its own, which a kept
database connection would not outlive, so this process borrows its connections from a pool
(``DATABASE_POOL``, on unless the environment says otherwise; ``durak_site.settings``).
"""

import os
import warnings

from django.core.asgi import get_asgi_application

from durak_site.access_log import quiet_polls

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
os.environ.setdefault("DATABASE_POOL", "true")

# whitenoise (synchronous middleware) answers a static file with a file iterator, which Django
# reads in a thread under ASGI and warns about once per process: expected, and harmless for
# files the size of a stylesheet.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")

application = get_asgi_application()
quiet_polls()
