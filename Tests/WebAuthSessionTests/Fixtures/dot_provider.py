"""django-oauth-toolkit as an independent OpenID provider for the integration tests.

Usage: python3 dot_provider.py WORKDIR [--fast-password-hasher] [--gunicorn [--access-log PATH] [--tls CERT KEY]] [--dcr]
With --fast-password-hasher (the benchmark's instance only), passwords are hashed with MD5 instead of
PBKDF2, whose ~300 ms per login would pad the plain-HTTP floor the benchmark compares against.
With --gunicorn (the benchmark's), the same app is served as Django is deployed: gunicorn (PyPI), gthread
worker, 1 worker x 4 threads, HTTP/1.1 keep-alive (gunicorn's defaults otherwise); --access-log PATH writes
its access log with each request's time in microseconds, and --tls CERT KEY serves HTTPS with that certificate
and key (PEM files; the issuer is then https://127.0.0.1:PORT/o). Without it, wsgiref's server answers (HTTP/1.0, one
connection per request). Neither serves static files (the consent page's stylesheet is a 404 on both).
Prints the port it listens on (127.0.0.1) on the first line of stdout, then serves until killed.
Issuer: http://127.0.0.1:PORT/o . User alice / wonderland; public client "webauth-test" with PKCE
required, redirect and post-logout redirect URI com.example.webauth:/callback, consent page shown.
Confidential client "webauth-hs256" (secret "hs256-client-secret-of-forty-bytes-long!", kept unhashed): its ID
tokens are signed HS256 with the secret, as OpenID Connect Core §10.1 says.
GET /test/counts returns how many refresh-token grants the token endpoint received.
With --dcr, dynamic client registration (RFC 7591/7592) is on (DCR_ENABLED, /o/register/, named in
discovery) behind django-oauth-toolkit's default permission, a signed-in user: a bearer access token of
alice's (OAuth2TokenMiddleware) is the initial access token, written to WORKDIR/initial-access-token.
A registered client gets RS256 ID tokens (its registration leaves the algorithm empty, which OIDC cannot sign with).
Device authorization grant (RFC 8628): public client "webauth-device", endpoint /o/device-authorization/
(not in discovery), verification page /o/device/ (Django login first, then the code, then Accept or Deny),
a poll every second. Its tokens come without an ID token.
"""
import os
import socket
import sys
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

workdir = sys.argv[1]
fast_password_hasher = "--fast-password-hasher" in sys.argv[2:]
gunicorn = "--gunicorn" in sys.argv[2:]
access_log = sys.argv[sys.argv.index("--access-log") + 1] if "--access-log" in sys.argv else None
tls = sys.argv[sys.argv.index("--tls") + 1:sys.argv.index("--tls") + 3] if "--tls" in sys.argv else None
dcr = "--dcr" in sys.argv[2:]
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
    # startproject's middleware, as a deployed app has it: SecurityMiddleware sends
    # Cross-Origin-Opener-Policy: same-origin (and nosniff, Referrer-Policy) on every answer.
    MIDDLEWARE=["django.middleware.security.SecurityMiddleware",
                "django.contrib.sessions.middleware.SessionMiddleware",
                "django.middleware.common.CommonMiddleware",
                "django.middleware.csrf.CsrfViewMiddleware",
                "django.contrib.auth.middleware.AuthenticationMiddleware",
                *(["oauth2_provider.middleware.OAuth2TokenMiddleware"] if dcr else []),
                "django.contrib.messages.middleware.MessageMiddleware",
                "django.middleware.clickjacking.XFrameOptionsMiddleware",
                __name__ + ".count_refreshes"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(workdir, "db.sqlite3"),
                           # Concurrent sign-ins wait for the write lock: each transaction takes it as it begins
                           # (IMMEDIATE). A deferred one (SQLite's default) that reads first cannot wait for it
                           # when it writes, and fails at once with "database is locked" (an HTTP 500 at the
                           # token endpoint, whose exchange reads the grant, then saves the tokens).
                           "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"}}},
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [templates], "APP_DIRS": True,
                "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                                   "django.contrib.auth.context_processors.auth",
                                                   "django.contrib.messages.context_processors.messages"]}}],
    # An answer that fails (HTTP 500) is logged with its traceback on stderr, which DEBUG=False otherwise keeps quiet.
    LOGGING={"version": 1, "disable_existing_loggers": False, "handlers": {"stderr": {"class": "logging.StreamHandler"}},
             "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}}},
    LOGIN_URL="/accounts/login/",
    AUTHENTICATION_BACKENDS=(["oauth2_provider.backends.OAuth2Backend"] if dcr else []) + ["django.contrib.auth.backends.ModelBackend"],
    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"] if fast_password_hasher
    else ["django.contrib.auth.hashers.PBKDF2PasswordHasher"],
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
        "DEVICE_FLOW_INTERVAL": 1,
        "DCR_ENABLED": dcr,
        "OAUTH2_VALIDATOR_CLASS": "__main__.DeviceAwareValidator",
        # Filled in with the port once the server is bound (below).
        "OAUTH_DEVICE_VERIFICATION_URI": None,
        "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": None,
    },
)

import django

django.setup()

from dataclasses import dataclass
from typing import Optional

import oauth2_provider.views.device as device_views
from django.contrib.auth.views import LoginView
from oauth2_provider.models import DeviceCodeResponse


# oauthlib 4 adds "scope" to the device authorization response, which django-oauth-toolkit 3.4's
# DeviceCodeResponse does not take (a TypeError, HTTP 500): accept it.
@dataclass
class DeviceCodeResponseWithScope(DeviceCodeResponse):
    scope: Optional[str] = None


device_views.DeviceCodeResponse = DeviceCodeResponseWithScope


# oauthlib 4 asks the validator for a device code's status when the token endpoint issues its
# tokens (validate_device_code), which django-oauth-toolkit 3.4 does not implement (an
# AttributeError, HTTP 500): answer from its own DeviceGrant table, which its views keep.
from oauth2_provider.models import get_device_grant_model
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc8628.grant_types.device_code import DeviceCodeGrant


class DeviceAwareValidator(OAuth2Validator):
    def validate_device_code(self, client_id, code, request, *args, **kwargs):
        grant = get_device_grant_model().objects.filter(client_id=client_id, device_code=code).first()
        if grant is None:
            return None
        if grant.status == grant.AUTHORIZED:
            request.user = grant.user
            request.scopes = grant.scope.split()
            return DeviceCodeGrant.DEVICE_CODE_AUTHORIZED
        return {grant.AUTHORIZATION_PENDING: DeviceCodeGrant.DEVICE_CODE_PENDING, grant.DENIED: DeviceCodeGrant.DEVICE_CODE_DENIED,
                grant.EXPIRED: DeviceCodeGrant.DEVICE_CODE_EXPIRED}.get(grant.status)
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
Application.objects.create(
    name="WebAuthSession HS256 tests", client_id="webauth-hs256", client_secret="hs256-client-secret-of-forty-bytes-long!",
    hash_client_secret=False, client_type=Application.CLIENT_CONFIDENTIAL,
    authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris="com.example.webauth:/callback",
    algorithm=Application.HS256_ALGORITHM, skip_authorization=False)
Application.objects.create(
    name="WebAuthSession device tests", client_id="webauth-device", client_secret="", client_type=Application.CLIENT_PUBLIC,
    authorization_grant_type=Application.GRANT_DEVICE_CODE, redirect_uris="", algorithm=Application.RS256_ALGORITHM)

if dcr:
    from datetime import timedelta

    from django.db.models.signals import pre_save
    from django.utils import timezone
    from oauth2_provider.models import AccessToken, set_token_value

    def sign_id_tokens(sender, instance, **kwargs):
        if not instance.algorithm:
            instance.algorithm = Application.RS256_ALGORITHM

    pre_save.connect(sign_id_tokens, sender=Application, weak=False)
    registrar = Application.objects.create(
        name="registrar", client_id="registrar", client_secret="", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris="com.example.registrar:/cb")
    initial_token = os.urandom(24).hex()
    initial = AccessToken(user=User.objects.get(username="alice"), application=registrar,
                          expires=timezone.now() + timedelta(hours=1), scope="openid")
    set_token_value(initial, initial_token)
    initial.save()
    with open(os.open(os.path.join(workdir, "initial-access-token"), os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(initial_token)


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def serve_with_gunicorn(application, listener):
    """Serves `application` on the bound `listener` with gunicorn: gthread, 1 worker x 4 threads."""
    from django.db import connections
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self):
            for key, value in {"bind": ["fd://%d" % listener.fileno()], "worker_class": "gthread", "workers": 1,
                               "threads": 4, "preload_app": True, "accesslog": access_log,
                               "access_log_format": '%(t)s "%(r)s" %(s)s %(B)s %(D)sus',
                               **({"certfile": tls[0], "keyfile": tls[1]} if tls else {})}.items():
                self.cfg.set(key, value)

        def load(self):
            return application

    connections.close_all()  # the migration's, opened before the worker forks
    Server().run()


application = get_wsgi_application()
if gunicorn:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.set_inheritable(True)
    port = listener.getsockname()[1]
else:
    server = make_server("127.0.0.1", 0, application, server_class=ThreadingServer, handler_class=QuietHandler)
    port = server.server_address[1]
verification = "%s://127.0.0.1:%d/o/device/" % ("https" if tls else "http", port)
settings.OAUTH2_PROVIDER["OAUTH_DEVICE_VERIFICATION_URI"] = verification
settings.OAUTH2_PROVIDER["OAUTH_DEVICE_VERIFICATION_URI_COMPLETE"] = verification + "?user_code={user_code}"
from oauth2_provider.settings import oauth2_settings
oauth2_settings.reload()
print(port, flush=True)
if gunicorn:
    serve_with_gunicorn(application, listener)
else:
    server.serve_forever()
