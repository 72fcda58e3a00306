"""django-oauth-toolkit as an independent OpenID provider for the integration tests.

Usage: python3 dot_provider.py WORKDIR
Prints the port it listens on (127.0.0.1) on the first line of stdout, then serves until killed.
Issuer: http://127.0.0.1:PORT/o . User alice / wonderland; public client "webauth-test" with PKCE
required, redirect and post-logout redirect URI com.example.webauth:/callback, consent page shown.
GET /test/counts returns how many refresh-token grants the token endpoint received.
"""
import os
import sys
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

workdir = sys.argv[1]
templates = os.path.join(workdir, "templates")
os.makedirs(templates, exist_ok=True)
with open(os.path.join(templates, "login.html"), "w") as f:
    f.write("""<!DOCTYPE html><html><head><title>Log in</title></head><body>
<form method="post">{% csrf_token %}{{ form.as_p }}<button id="sign-in" type="submit">Log in</button></form>
</body></html>""")

key = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()

from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="test-only-" + os.urandom(16).hex(),
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
                    "django.contrib.messages", "oauth2_provider"],
    MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware",
                "django.middleware.csrf.CsrfViewMiddleware",
                "django.contrib.auth.middleware.AuthenticationMiddleware",
                "django.contrib.messages.middleware.MessageMiddleware",
                __name__ + ".count_refreshes"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(workdir, "db.sqlite3"),
                           "OPTIONS": {"timeout": 30}}},  # concurrent sign-ins wait for the write lock
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [templates], "APP_DIRS": True,
                "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                                   "django.contrib.auth.context_processors.auth",
                                                   "django.contrib.messages.context_processors.messages"]}}],
    LOGIN_URL="/accounts/login/",
    USE_TZ=True,
    OAUTH2_PROVIDER={
        "OIDC_ENABLED": True,
        "OIDC_RSA_PRIVATE_KEY": key,
        "PKCE_REQUIRED": True,
        "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
        "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
        "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.webauth"],
        "SCOPES": {"openid": "OpenID Connect", "profile": "Profile", "email": "Email"},
        "ACCESS_TOKEN_EXPIRE_SECONDS": 30,
    },
)

import django

django.setup()

from django.contrib.auth.views import LoginView
from django.http import JsonResponse
from django.urls import include, path

refreshes = {"count": 0}
lock = threading.Lock()


def count_refreshes(get_response):
    def middleware(request):
        if request.path == "/o/token/" and request.POST.get("grant_type") == "refresh_token":
            with lock:
                refreshes["count"] += 1
        return get_response(request)
    return middleware


urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", LoginView.as_view(template_name="login.html")),
    path("test/counts", lambda request: JsonResponse({"refresh": refreshes["count"]})),
]

from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.wsgi import get_wsgi_application
from oauth2_provider.models import Application

call_command("migrate", verbosity=0)
User.objects.create_user("alice", "alice@example.com", "wonderland", first_name="Alice")
Application.objects.create(
    name="WebAuthSession tests", client_id="webauth-test", client_secret="", client_type=Application.CLIENT_PUBLIC,
    authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris="com.example.webauth:/callback http://127.0.0.1:8765/callback",
    post_logout_redirect_uris="com.example.webauth:/callback http://127.0.0.1:8765/callback", algorithm=Application.RS256_ALGORITHM,
    skip_authorization=False)


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


server = make_server("127.0.0.1", 0, get_wsgi_application(), server_class=ThreadingServer, handler_class=QuietHandler)
print(server.server_address[1], flush=True)
server.serve_forever()
