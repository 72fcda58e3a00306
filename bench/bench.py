#!/usr/bin/env python3
"""The benchmark behind `bench/run`: the same sign-in (login form, consent page, code + PKCE,
the redirect captured) against django-oauth-toolkit (with a fast password hasher, so that the floor
is the protocol's cost) and the development provider, done by this engine (warm and cold), by
Selenium with WebKitWebDriver and with Chromium, by Playwright with Chromium, and by a plain HTTP
client (the lower bound); then a scaling run (1, 2, 4 and 8 sign-ins at once) drawn in
docs/scaling.png, and the issue's targets beside where we stand; then the sign-in broker
(bench/broker.py). Prints tables and writes BENCHMARKS.md. Numbers, never assertions."""

import argparse, base64, contextlib, hashlib, html, http.server, json, os, platform, re, secrets, shutil, signal, statistics
import subprocess, sys, tempfile, threading, time, urllib.error, urllib.parse, urllib.request
import http.cookiejar
import psutil
import broker as broker_bench  # bench/broker.py, beside this file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "wonderland"
CUSTOM_REDIRECT = "com.example.webauth:/callback"
LOOPBACK_PORT = 8765
LOOPBACK_REDIRECT = f"http://127.0.0.1:{LOOPBACK_PORT}/callback"


# ---- measuring a process tree ------------------------------------------------------------

class TreeMeter:
    """Samples process trees (their roots, e.g. a browser's driver, plus extra processes, e.g. an
    Xvfb) every 50 ms: peak PSS of the whole tree (shared pages counted once across it, unlike RSS),
    and CPU seconds used by every process seen (those still alive at the end counted up to then).
    Sampling is fine here: this is a benchmark, not a test."""

    def __init__(self, root_pid, extra_pids=()):
        self.root, self.extra = root_pid, list(extra_pids)
        self.peak_pss, self.cpu = 0, {}
        self.running = True
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def processes(self):
        found = []
        for pid in [self.root] + self.extra:
            try:
                p = psutil.Process(pid)
                found.append(p)
                found.extend(p.children(recursive=True))
            except psutil.Error:
                pass
        return found

    def sample(self):
        pss = 0
        for p in self.processes():
            try:
                pss += p.memory_full_info().pss
                t = p.cpu_times()
                self.cpu[p.pid] = t.user + t.system
            except psutil.Error:
                pass
        self.peak_pss = max(self.peak_pss, pss)

    def _loop(self):
        while self.running:
            self.sample()
            time.sleep(0.05)

    def cpu_seconds(self):
        return sum(self.cpu.values())

    def stop(self):
        self.sample()
        self.running = False
        self.thread.join()


# ---- providers ---------------------------------------------------------------------------

def first_line(process):
    line = process.stdout.readline().decode().strip()
    if not line:
        raise SystemExit(f"{process.args} did not start")
    return line


class Django:
    """django-oauth-toolkit (Tests/…/dot_provider.py) served as the tests serve it, by wsgiref's threaded server
    (HTTP/1.0: a connection per request); `Gunicorn` serves the same app as deployed."""
    name = "django-oauth-toolkit (fast hasher)"
    client_id = "webauth-test"
    script = "django.yaml"
    server_arguments = []

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="bench-dot-")
        self.process = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/WebAuthSessionTests/Fixtures/dot_provider.py"), self.dir,
                                         "--fast-password-hasher", *self.server_arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        self.base = f"http://127.0.0.1:{first_line(self.process)}"
        self.issuer = self.base + "/o"
        self.authorize, self.token = self.issuer + "/authorize/", self.issuer + "/token/"

    def http_login(self, http, url):
        """GET authorize → login form → POST → authorize → consent → POST allow; returns the redirect."""
        location = http.get(url).headers["Location"]
        login_url = urllib.parse.urljoin(self.base, location)
        page = http.get(login_url).read().decode()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        answer = http.post(login_url, {"csrfmiddlewaretoken": csrf, "username": "alice", "password": PASSWORD},
                           headers={"Referer": login_url})
        consent_url = urllib.parse.urljoin(self.base, answer.headers["Location"])
        consent = http.get(consent_url).read().decode()
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', consent))
        fields = {k: html.unescape(v) for k, v in fields.items()}
        fields["allow"] = "Authorize"
        return http.post(self.authorize, fields, headers={"Referer": consent_url}).headers["Location"]

    def browser_login(self, driver, by, wait):
        """The login form and the consent page in a browser: Selenium's driver, or a PlaywrightPage. The form is waited
        for: WebKitWebDriver's `get` can return while the authorization endpoint's 302 to it (and COOP's process swap)
        is still under way (a run failed there, "no such element")."""
        wait(driver, lambda d: d.find_elements(by.ID, "id_username"))
        driver.find_element(by.ID, "id_username").send_keys("alice")
        driver.find_element(by.ID, "id_password").send_keys(PASSWORD)
        driver.find_element(by.ID, "sign-in").click()
        wait(driver, lambda d: d.find_elements(by.CSS_SELECTOR, "input[name=allow]"))
        driver.find_element(by.CSS_SELECTOR, "input[name=allow]").click()

    def stop(self):
        os.killpg(self.process.pid, signal.SIGKILL)  # the server and, under gunicorn, its worker
        self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class Gunicorn(Django):
    """The same django-oauth-toolkit app as `Django`, served as deployed: gunicorn, gthread worker, 1 worker × 4 threads,
    HTTP/1.1 keep-alive."""
    name = "django-oauth-toolkit under gunicorn (fast hasher)"
    server_arguments = ["--gunicorn"]


class Embedded:
    name = "embedded provider"
    client_id = "webauth-demo"
    script = "embedded.yaml"

    def __init__(self, bin_dir):
        self.process = subprocess.Popen([os.path.join(bin_dir, "webauth"), "provider", "--config", os.path.join(ROOT, "bench/provider.json")],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.issuer = first_line(self.process)
        self.authorize, self.token = self.issuer + "/authorize", self.issuer + "/token"

    def http_login(self, http, url):
        """GET authorize (login form) → POST → consent → POST allow; returns the redirect."""
        http.get(url).read()
        consent = http.post(url, {"step": "password", "username": "alice", "password": PASSWORD}).read().decode()
        interaction = re.search(r"name=\"interaction\" value=\"([^\"]+)\"", consent).group(1)
        return http.post(url, {"step": "consent", "interaction": interaction, "decision": "allow"}).headers["Location"]

    def browser_login(self, driver, by, wait):
        """The login form and the consent page in a browser: Selenium's driver, or a PlaywrightPage."""
        driver.find_element(by.ID, "username").send_keys("alice")
        driver.find_element(by.ID, "password").send_keys(PASSWORD)
        driver.find_element(by.ID, "sign-in").click()
        wait(driver, lambda d: d.find_elements(by.ID, "allow"))
        driver.find_element(by.ID, "allow").click()

    def stop(self):
        # SIGTERM, which it traps: SIGKILL left its runtime folder in TMPDIR after every benchmark.
        self.process.terminate()
        self.process.wait()


def providers(bin_dir):
    """Every provider of the benchmark, started: the development server's Django, gunicorn's, the embedded one."""
    return [Django(), Gunicorn(), Embedded(bin_dir)]


# ---- the plain HTTP lower bound ------------------------------------------------------------

class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Answer:
    """An HTTP answer read whole: its status, headers and body."""

    def __init__(self, response):
        self.status, self.headers, self.body = response.status, response.headers, response.read()

    def read(self):
        return self.body


class HTTP:
    """urllib with a cookie jar and no redirects followed: what a browser does, minus the browser."""

    def __init__(self):
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirects())

    def request(self, url, data=None, headers=None):
        """The answer, read and its connection closed at once, as curl does. urllib asks for `Connection: close`, and
        gunicorn 27 then waits for the client to close too, up to 2 s, with its whole worker: an answer left open (a
        redirect arrives as an HTTPError, closed only when collected) stalled every request behind it."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            response = self.opener.open(urllib.request.Request(url, data=body, headers=headers or {}), timeout=30)
        except urllib.error.HTTPError as error:  # 30x arrive as errors when not followed
            response = error
        with response:
            return Answer(response)

    def get(self, url, headers=None):
        return self.request(url, headers=headers)

    def post(self, url, data, headers=None):
        return self.request(url, data, headers)


def pkce():
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def authorization_url(provider, redirect):
    verifier, challenge = pkce()
    query = urllib.parse.urlencode({"response_type": "code", "client_id": provider.client_id, "redirect_uri": redirect,
                                    "scope": "openid", "state": secrets.token_urlsafe(16), "nonce": secrets.token_urlsafe(16),
                                    "code_challenge": challenge, "code_challenge_method": "S256"})
    return provider.authorize + "?" + query, verifier


def exchange(provider, redirect_uri, location, verifier):
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]
    answer = HTTP().post(provider.token, {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                          "client_id": provider.client_id, "redirect_uri": redirect_uri})
    tokens = json.loads(answer.read())
    assert "id_token" in tokens, tokens


def lower_bound(provider, runs):
    results = []
    for i in range(runs + 1):
        url, verifier = authorization_url(provider, CUSTOM_REDIRECT)
        start = time.perf_counter()
        location = provider.http_login(HTTP(), url)
        redirect = time.perf_counter() - start
        exchange(provider, CUSTOM_REDIRECT, location, verifier)
        if i:  # the first is a warm-up
            results.append((redirect * 1000, (time.perf_counter() - start) * 1000))
    return {"runs": results}


# ---- driven browsers --------------------------------------------------------------------------

def driven_sign_ins(provider, runs, one_sign_in, after_first):
    """`runs` timed sign-ins after one warm-up by a driven browser. `one_sign_in()` is a context
    manager around one sign-in that gives `sign_in(url)`: open the authorization URL, log in, wait
    for the loopback redirect, return the URL landed on. `after_first()` runs after the first
    (the PSS meter starts then: the cold comparison times a start-up plus one login with no meter
    beside it, as this engine's cold login). Returns the timed (to redirect, to tokens) pairs and
    the first (warm-up) sign-in's time to tokens, which a start-up plus one login counts."""
    results, first = [], None
    for i in range(runs + 1):
        with one_sign_in() as sign_in:
            url, verifier = authorization_url(provider, LOOPBACK_REDIRECT)
            t = time.perf_counter()
            landed = sign_in(url)
            redirect = time.perf_counter() - t
            exchange(provider, LOOPBACK_REDIRECT, landed, verifier)
            timed = (redirect * 1000, (time.perf_counter() - t) * 1000)
        if i:  # the first is a warm-up
            results.append(timed)
        else:
            first = timed[1]
            after_first()
    return results, first


# ---- Selenium -------------------------------------------------------------------------------

def wait_for(driver, condition, timeout=30):
    """Polls `condition` until it holds. A poll that lands while the page unloads (WebKitWebDriver:
    "Callback was not called before the unload event") or finds an element of the page just left
    is polled again, as a person would look again."""
    from selenium.common.exceptions import NoSuchFrameException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.005,
                         ignored_exceptions=(NoSuchFrameException, StaleElementReferenceException)).until(condition)


class CallbackServer:
    """Where Selenium's browser lands: a loopback page at the redirect URI (a browser driven by
    Selenium cannot stop a custom-scheme navigation, so it gets a real one)."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(b"<p>ok</p>")

            def log_message(self, *args):
                pass
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", LOOPBACK_PORT), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def selenium(provider, browser, runs):
    """Selenium driving `browser` ("webkit": WebKitWebDriver on an Xvfb of its own, started in the timed start-up as
    this engine's cold `webauth login` starts its own; "chrome": headless Chromium), with `runs` sign-ins after the
    first. Its start-up (`startup_ms`, of which `display_ms` the Xvfb), first sign-in, peak PSS and CPU."""
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    env_display = os.environ.get("DISPLAY")
    start = time.perf_counter()
    display, display_ms = None, 0.0
    if browser == "webkit":
        display = Display()
        display_ms = (time.perf_counter() - start) * 1000
        os.environ["DISPLAY"] = display.name
        driver = webdriver.WebKitGTK(service=webdriver.WebKitGTKService(executable_path="/usr/bin/WebKitWebDriver"))
        extra = [display.process.pid]
    else:
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"), options=options)
        extra = []
    startup = (time.perf_counter() - start) * 1000
    meters = []  # the driver and its browser (and Xvfb), not this script's providers, from the second sign-in on

    @contextlib.contextmanager
    def one_sign_in():  # one driver for all; its cookies deleted after each
        def sign_in(url):
            driver.get(url)
            provider.browser_login(driver, By, wait_for)
            wait_for(driver, lambda d: d.current_url.startswith(LOOPBACK_REDIRECT))
            return driver.current_url
        yield sign_in
        driver.delete_all_cookies()
    try:
        results, first = driven_sign_ins(provider, runs, one_sign_in,
                                         lambda: meters.append(TreeMeter(driver.service.process.pid, extra)))
    finally:
        driver.quit()
        for meter in meters:
            meter.stop()
        if display:
            display.stop()
        if env_display is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = env_display
    return {"runs": results, "startup_ms": startup, "display_ms": display_ms, "first_ms": first, "peak_pss": meters[0].peak_pss,
            "cpu_s": meters[0].cpu_seconds()}


# ---- Playwright -----------------------------------------------------------------------------

class PlaywrightPage:
    """Playwright's page behind the calls the providers' `browser_login` makes (find an element and
    type into it or click it; find elements, waiting for them), so every browser signs in with the same steps."""

    class By:
        ID, CSS_SELECTOR = "id", "css"

    def __init__(self, page):
        self.page = page

    def locator(self, by, value):
        return self.page.locator(f"#{value}" if by == "id" else value)

    def find_element(self, by, value):
        locator = self.locator(by, value)

        class Element:
            send_keys = staticmethod(lambda text: locator.fill(text))
            click = staticmethod(lambda: locator.click())
        return Element()

    def find_elements(self, by, value):
        locator = self.locator(by, value)
        locator.first.wait_for()
        return [locator]


def playwright(provider, runs):
    """Playwright (PyPI) driving Debian's Chromium through executable_path, headless: its own browser
    downloads are not reachable here. A new context per sign-in: its own cookies, as this engine's
    ephemeral sessions."""
    from playwright.sync_api import sync_playwright
    before = {child.pid for child in psutil.Process().children()}
    start = time.perf_counter()
    manager = sync_playwright().start()
    browser = manager.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox", "--disable-gpu"])
    startup = (time.perf_counter() - start) * 1000
    driver_pids = [child.pid for child in psutil.Process().children() if child.pid not in before]
    meters = []  # Playwright's driver and the browser it started, from the second sign-in on

    @contextlib.contextmanager
    def one_sign_in():  # a new context (cookies, storage) for each
        context = browser.new_context()
        page = context.new_page()

        def sign_in(url):
            page.goto(url)
            provider.browser_login(PlaywrightPage(page), PlaywrightPage.By, lambda driver, condition: condition(driver))
            page.wait_for_url(LOOPBACK_REDIRECT + "*")
            return page.url
        yield sign_in
        context.close()
    try:
        results, first = driven_sign_ins(provider, runs, one_sign_in, lambda: meters.append(TreeMeter(driver_pids[0], driver_pids[1:])))
    finally:
        browser.close()
        manager.stop()
        for meter in meters:
            meter.stop()
    return {"runs": results, "startup_ms": startup, "first_ms": first, "peak_pss": meters[0].peak_pss, "cpu_s": meters[0].cpu_seconds()}


class Display:
    """An Xvfb for a browser that needs one (WebKitWebDriver), as a person with no display starts it (`xvfb-run`):
    Xvfb's defaults, GLX on. This engine starts its own."""

    def __init__(self, screen="1280x1024x24"):
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                                        pass_fds=[write], stderr=subprocess.DEVNULL)
        os.close(write)
        number = b""
        while not number.endswith(b"\n"):  # the whole line: Xvfb dies ("Cannot write display number") if the pipe closes first
            chunk = os.read(read, 16)
            if not chunk:
                raise SystemExit("Xvfb did not start")
            number += chunk
        self.name = ":" + number.decode().strip()
        os.close(read)

    def stop(self):
        self.process.kill()
        self.process.wait()


# ---- this engine ----------------------------------------------------------------------------

def environment(home):
    """This engine's environment: no display (it starts its own Xvfb), and a D-Bus session that is not there (GLib would
    otherwise try to start one) in a directory of its own, so that web processes run in WebKit's sandbox, as a user's do.
    `unix:path=/nonexistent` turned the sandbox off (WebKit's D-Bus proxy cannot be sandboxed with its socket in /), and
    every sandboxed web process takes about 100 ms longer to start."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    os.makedirs(os.path.join(home, "no-bus"), exist_ok=True)
    env.update({"BENCH_PASSWORD": PASSWORD, "XDG_STATE_HOME": os.path.join(home, "state"),
                "XDG_DATA_HOME": os.path.join(home, "data"), "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + os.path.join(home, "no-bus/socket")})
    return env


def measured(command, env):
    """Runs `command`; returns (stdout, stderr, status, wall seconds, peak PSS of its tree, CPU seconds of its tree)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    meter = TreeMeter(process.pid)
    out, err = process.communicate()
    wall = time.perf_counter() - start
    meter.stop()
    return out, err, process.returncode, wall, meter.peak_pss, meter.cpu_seconds()


def engine_bench(provider, bin_dir, home, arguments, extra_env=None):
    """Runs webauth-bench against `provider` with `arguments`; returns its JSON, the tree's peak PSS and CPU seconds."""
    command = [os.path.join(bin_dir, "webauth-bench"), "--issuer", provider.issuer, "--client-id", provider.client_id,
               "--redirect-uri", CUSTOM_REDIRECT, "--script", os.path.join(ROOT, "bench/scripts", provider.script)] + arguments
    out, err, status, wall, pss, cpu = measured(command, {**environment(home), **(extra_env or {})})
    if status != 0:
        raise SystemExit(f"webauth-bench failed: {err.decode()[-2000:]}")
    return json.loads(out), pss, cpu


def engine_warm(provider, bin_dir, runs, parallel, home, arguments=(), extra_env=None):
    result, pss, cpu = engine_bench(provider, bin_dir, home, ["--count", str(runs), "--parallel", str(parallel), *arguments], extra_env)
    return {"runs": [(r["redirect_ms"], r["tokens_ms"]) for r in result["runs"]], "per_minute": result["sign_ins_per_minute"],
            "failures": result["failures"], "peak_pss": pss, "cpu_s": cpu, "sandbox": result["sandbox"]}


def login_command(bin_dir, provider, script=None):
    """A cold, scripted, headless `webauth login` against `provider` (its own script unless `script` names another)."""
    return [os.path.join(bin_dir, "webauth"), "login", "--issuer", provider.issuer, "--client-id", provider.client_id,
            "--redirect-uri", CUSTOM_REDIRECT, "--scope", "openid", "--headless", "--ephemeral",
            "--script", os.path.join(ROOT, "bench/scripts", script or provider.script)]


def engine_cold(provider, bin_dir, runs, home):
    """`runs` cold `webauth login` processes after an unmeasured one, timed with no PSS meter beside them (it reads
    every process's smaps every 50 ms, which slowed a starting tree by about 45 ms: 511 against 466 ms, 12 runs each;
    Selenium's start-up and first login are timed so too), then two more under the meter for the peak PSS and CPU."""
    command = login_command(bin_dir, provider)
    results, peak, cpu = [], 0, 0.0
    for i in range(runs + 1):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, env=environment(home))
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"webauth login failed: {done.stderr.decode()[-2000:]}")
        if i:
            results.append((wall * 1000, wall * 1000))
    for _ in range(2 if runs else 0):
        out, err, status, wall, pss, used = measured(command, environment(home))
        if status != 0:
            raise SystemExit(f"webauth login failed: {err.decode()[-2000:]}")
        peak, cpu = max(peak, pss), max(cpu, used)
    return {"runs": results, "peak_pss": peak, "cpu_s": cpu}


def idle_cpu(provider, bin_dir, home):
    """CPU used by the whole tree while a sign-in window waits 10 s for a person who does nothing."""
    command = [os.path.join(bin_dir, "webauth"), "login", "--issuer", provider.issuer, "--client-id", provider.client_id,
               "--redirect-uri", CUSTOM_REDIRECT, "--scope", "openid", "--timeout", "12"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment(home))
    meter = TreeMeter(process.pid)
    time.sleep(2)  # the page has loaded
    meter.sample()
    before = meter.cpu_seconds()
    time.sleep(10)
    meter.sample()
    used = meter.cpu_seconds() - before
    process.wait()
    meter.stop()
    return used


def wrong_password(provider, bin_dir, home, runs):
    """Seconds from start to exit of a cold `webauth login --headless --script` whose password is
    wrong, with the default settle time (10 s) and a short one (2 s): the page shows its error,
    settles, and the command exits 7 quoting it instead of waiting out --timeout."""
    results = {}
    for settle in (None, 2):
        command = login_command(bin_dir, provider, "wrong-password.yaml") + (["--settle-time", str(settle)] if settle else [])
        env = dict(environment(home), BENCH_PASSWORD="not-" + PASSWORD)
        times = []
        for _ in range(runs):
            out, err, status, wall, pss, cpu = measured(command, env)
            if status != 7:
                raise SystemExit(f"webauth login with a wrong password exited {status}, not 7: {err.decode()[-2000:]}")
            times.append(wall)
        results["default (10 s)" if settle is None else f"{settle} s"] = times
    return results


def wrong_password_lines(results, runs):
    lines = [f"Seconds from start to exit of a cold `webauth login --headless --script` with a wrong password against the",
             f"embedded provider (the page settles, exit 7 with its message; N = {runs}, median (min–max); the settle time is",
             "the wait after the last step, the rest is start-up, the page loads and the form post):", "",
             "| settle time | seconds to exit |", "|---|---|"]
    lines += [f"| {name} | {statistics.median(t):.1f} ({min(t):.1f}–{max(t):.1f}) |" for name, t in results.items()]
    return lines


def warm_up(bin_dir, home):
    """Starts every client once, unmeasured, with one sign-in each: the first start of a browser on a
    cold disk cache took 905 ms where the next took 232, and whichever provider came first paid it."""
    provider = Embedded(bin_dir)
    try:
        engine_cold(provider, bin_dir, 0, home)
        for browser in ("webkit", "chrome"):
            selenium(provider, browser, 0)
        playwright(provider, 0)
    finally:
        provider.stop()


def one_round(provider, bin_dir, runs, home):
    """Every client's `runs` sign-ins against `provider` (each after its own warm-up), one client after another."""
    return {
        "plain HTTP (lower bound)": lower_bound(provider, runs),
        "this engine, warm": engine_warm(provider, bin_dir, runs, 1, home),
        "this engine, cold `webauth login`": engine_cold(provider, bin_dir, runs, home),
        "Selenium + WebKitWebDriver": selenium(provider, "webkit", runs),
        "Selenium + Chromium": selenium(provider, "chrome", runs),
        "Playwright + Chromium": playwright(provider, runs),
    }


def interleaved(started, bin_dir, runs, rounds, home):
    """`runs` sign-ins of every client against every provider, in `rounds` rounds that each visit every provider and
    client in turn, so that a busy moment of the machine falls on all of them alike and every floor is measured beside
    what is compared with it. Returns each provider's results by client: the rounds' sign-ins together, the median
    start-up and first sign-in, the peak PSS, the CPU seconds summed."""
    shares = [runs // rounds + (i < runs % rounds) for i in range(rounds)]
    measured = {provider.name: {} for provider in started}
    for index, share in enumerate(shares):
        for provider in started:
            print(f"== round {index + 1} of {rounds}: {provider.name}", file=sys.stderr)
            for client, result in one_round(provider, bin_dir, share, home).items():
                measured[provider.name].setdefault(client, []).append(result)
    return {name: {client: merged(results) for client, results in clients.items()} for name, clients in measured.items()}


def merged(results):
    """One client's results of several rounds as one."""
    together = {"runs": [run for result in results for run in result["runs"]]}
    for key, combine in (("startup_ms", statistics.median), ("display_ms", statistics.median), ("first_ms", statistics.median), ("peak_pss", max), ("cpu_s", sum),
                         ("sandbox", lambda said: ", ".join(sorted(set(said))))):
        if key in results[0]:
            together[key] = combine(result[key] for result in results)
    return together


# ---- the attempts at a faster warm sign-in (each one change, measured against what was kept) ----

SMALL_DISPLAY = "800x600x16"
NO_REUSE = ["--no-reuse-views"]
ATTEMPTS = [  # (what changes, webauth-bench arguments, environment; DISPLAY=SMALL_DISPLAY runs on an Xvfb of that screen)
    # All from before the pool's kept views, so each runs with a new view per sign-in (`--no-reuse-views`, NO_REUSE).
    ("kept: a new view per sign-in, without GPU compositing", NO_REUSE, {}),
    ("a view kept ready (`--prewarm-views`), which keeps GPU compositing", [*NO_REUSE, "--prewarm-views"], {}),
    ("a view kept ready, Skia painting on the CPU (`WEBKIT_SKIA_ENABLE_CPU_RENDERING=1`)", [*NO_REUSE, "--prewarm-views"],
     {"WEBKIT_SKIA_ENABLE_CPU_RENDERING": "1"}),
    ("a view kept ready, no DMA-BUF renderer (`WEBKIT_DISABLE_DMABUF_RENDERER=1`)", [*NO_REUSE, "--prewarm-views"],
     {"WEBKIT_DISABLE_DMABUF_RENDERER": "1"}),
    ("an 800×600 screen instead of 1280×1024 (`--virtual-screen 800x600`)", [*NO_REUSE, "--virtual-screen", "800x600"], {}),
    ("an 800×600 screen of depth 16 (an Xvfb of its own, not counted)", NO_REUSE,
     {"DISPLAY": SMALL_DISPLAY}),
    ("no memory-pressure monitor (`WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR=1`)", NO_REUSE, {"WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR": "1"}),
]
ATTEMPT_ROUNDS, ATTEMPT_RUNS, ATTEMPT_SOAK = 3, 10, 200


def attempts(provider, bin_dir, home):
    """Each attempt's warm sign-ins against `provider`, in ATTEMPT_ROUNDS interleaved rounds of ATTEMPT_RUNS (so a
    busy moment of the machine falls on all of them alike), then ATTEMPT_SOAK sign-ins in a row for what each leaves
    behind (descriptors, and WebKit's `ReceiveQueue` threads: its compositing leak shows there)."""
    small = Display(SMALL_DISPLAY)
    resolve = lambda env: {k: small.name if v == SMALL_DISPLAY else v for k, v in env.items()}
    try:
        results = {name: {"runs": [], "peak_pss": 0} for name, _, _ in ATTEMPTS}
        for _ in range(ATTEMPT_ROUNDS):
            for name, arguments, env in ATTEMPTS:
                warm = engine_warm(provider, bin_dir, ATTEMPT_RUNS, 1, home, arguments, resolve(env))
                results[name]["runs"] += warm["runs"]
                results[name]["peak_pss"] = max(results[name]["peak_pss"], warm["peak_pss"])
        for name, arguments, env in ATTEMPTS:
            soak, _, _ = engine_bench(provider, bin_dir, home,
                                      ["--count", str(ATTEMPT_SOAK), "--report-every", str(ATTEMPT_SOAK), *arguments], resolve(env))
            first, last = soak["checkpoints"][0], soak["checkpoints"][-1]
            results[name]["left"] = {key: (first[key], last[key]) for key in ("fds", "receive_queues")}
            print(name, results[name]["left"], file=sys.stderr)
        return results
    finally:
        small.stop()


def attempt_lines(provider, results):
    kept = stats([r for r, _ in next(iter(results.values()))["runs"]])[0]
    lines = [f"Each attempt to speed up a warm sign-in, against the {provider} (`bench/run --attempts`: {ATTEMPT_ROUNDS} interleaved rounds of "
             f"{ATTEMPT_RUNS} warm sign-ins each, then {ATTEMPT_SOAK} in a row for what they leave behind):", "",
             f"| attempt | to redirect | to tokens | vs kept | peak PSS MiB | descriptors, before → after {ATTEMPT_SOAK} "
             f"| `ReceiveQueue` threads, before → after {ATTEMPT_SOAK} |", "|---|---|---|---|---|---|---|"]
    for name, result in results.items():
        redirect, tokens = [r for r, _ in result["runs"]], [t for _, t in result["runs"]]
        lines.append(f"| {name} | {fmt(redirect)} | {fmt(tokens)} | {stats(redirect)[0] / kept:.2f}× | "
                     f"{result['peak_pss'] / 2**20:.0f} | " + " | ".join(f"{before:.0f} → {after:.0f}" for before, after in result["left"].values()) + " |")
    return lines


# ---- a pool place that keeps its view ---------------------------------------------------------

REUSE_ROUNDS, REUSE_RUNS = 6, 10
REUSE_MODES = [  # (row, webauth-bench arguments)
    ("this engine, warm: each place keeps its view (`SignInPool.reusesViews`, the default)", []),
    ("this engine, warm: a new view per sign-in (`--no-reuse-views`)", NO_REUSE),
]


def reuse(provider, bin_dir, home):
    """Warm sign-ins with and without kept views, and the plain HTTP floor, against `provider`: REUSE_ROUNDS interleaved
    rounds of REUSE_RUNS each, so a busy moment of the machine falls on all of them alike."""
    results = {"plain HTTP (floor)": {"runs": [], "peak_pss": 0}, **{name: {"runs": [], "peak_pss": 0} for name, _ in REUSE_MODES}}
    for _ in range(REUSE_ROUNDS):
        results["plain HTTP (floor)"]["runs"] += lower_bound(provider, REUSE_RUNS)["runs"]
        for name, arguments in REUSE_MODES:
            warm = engine_warm(provider, bin_dir, REUSE_RUNS, 1, home, arguments)
            results[name]["runs"] += warm["runs"]
            results[name]["peak_pss"] = max(results[name]["peak_pss"], warm["peak_pss"])
    return results


def reuse_lines(provider, results):
    floor = stats([r for r, _ in results["plain HTTP (floor)"]["runs"]])[0]
    lines = [f"Warm sign-ins against the {provider} with and without kept views (`bench/run --reuse`: {REUSE_ROUNDS} interleaved "
             f"rounds of {REUSE_RUNS} each, the plain HTTP floor in the same rounds), in ms:", "",
             "| client | to redirect | to tokens | browser's own cost (redirect − floor) | vs floor | peak PSS MiB |",
             "|---|---|---|---|---|---|"]
    for name, result in results.items():
        redirect, tokens = [r for r, _ in result["runs"]], [t for _, t in result["runs"]]
        median = stats(redirect)[0]
        own = "–" if name.startswith("plain") else f"{median - floor:.0f}"
        pss = f"{result['peak_pss'] / 2**20:.0f}" if result["peak_pss"] else "–"
        lines.append(f"| {name} | {fmt(redirect)} | {fmt(tokens)} | {own} | {median / floor:.1f}× | {pss} |")
    return lines


SOAK_COUNT, SOAK_EVERY = 2000, 500


def soak(provider, bin_dir, home):
    """SOAK_COUNT warm sign-ins in a row on the kept setup, a checkpoint every SOAK_EVERY; returns them and the tree's peak PSS."""
    result, pss, _ = engine_bench(provider, bin_dir, home, ["--count", str(SOAK_COUNT), "--report-every", str(SOAK_EVERY)])
    return result, pss


def soak_lines(provider, result, peak):
    lines = [f"{SOAK_COUNT} warm sign-ins in a row against the {provider} (`bench/run --soak`: the kept setup, a pool of one "
             f"place that keeps its view, release build, headless), the process tree at each checkpoint; the whole run's peak "
             f"PSS of the tree: {peak / 2**20:.0f} MiB:", "",
             "| sign-ins | ms to redirect (median since the row before) | PSS of the tree MiB | RSS of the tree MiB "
             "| descriptors (process / tree) | threads | `ReceiveQueue` threads | web processes |", "|---|---|---|---|---|---|---|---|"]
    for point in result["checkpoints"]:
        median = "–" if point["redirect_ms"] is None else f"{point['redirect_ms']:.0f}"
        lines.append(f"| {point['sign_ins']:.0f} | {median} | {point['pss_mib']:.0f} | {point['rss_mib']:.0f} | "
                     f"{point['fds']:.0f} / {point['tree_fds']:.0f} | {point['threads']:.0f} | {point['receive_queues']:.0f} | "
                     f"{point['web_processes']:.0f} |")
    return lines


# ---- scaling and targets ----------------------------------------------------------------------

WIDTHS = (1, 2, 4, 8)
SCALING_COUNT = 32  # sign-ins per width: fewer left the ratios noisy (8 at once read 0.70× in one run, 1.42× in the next with 16)


def scale(provider, bin_dir, home):
    """This engine's warm pool with 1, 2, 4 and 8 sign-ins at once (SCALING_COUNT each): sign-ins per minute,
    the peak PSS of the whole tree, and how many failed."""
    runs = {n: engine_warm(provider, bin_dir, SCALING_COUNT, n, home) for n in WIDTHS}
    return {n: {"per_minute": r["per_minute"], "peak_pss": r["peak_pss"], "failures": r["failures"]} for n, r in runs.items()}


def scaling_lines(scaling):
    """The scaling table, and docs/scaling.png drawn from it."""
    lines = [f"Sign-ins per minute and peak PSS with 1, 2, 4 and 8 sign-ins at once (this engine's warm pool, {SCALING_COUNT} sign-ins",
             "each; `bench/run --scaling` measures only this and redraws [docs/scaling.png](docs/scaling.png)):", "",
             "| provider | at once | sign-ins per minute | × one at a time | peak PSS MiB | failed |", "|---|---|---|---|---|---|"]
    for name, runs in scaling.items():
        for n, r in runs.items():
            lines.append(f"| {name} | {n} | {r['per_minute']:.0f} | {r['per_minute'] / runs[1]['per_minute']:.2f}× | "
                         f"{r['peak_pss'] / 2**20:.0f} | {len(r['failures'])} of {SCALING_COUNT} |")
    plot(scaling, os.path.join(ROOT, "docs/scaling.png"))
    return lines


def plot(scaling, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot
    figure, (rate, memory) = pyplot.subplots(1, 2, figsize=(10, 4))
    for name, runs in scaling.items():
        widths = list(runs)
        rate.plot(widths, [runs[n]["per_minute"] for n in widths], marker="o", label=name)
        memory.plot(widths, [runs[n]["peak_pss"] / 2**20 for n in widths], marker="o", label=name)
    for axes, title in ((rate, "sign-ins per minute"), (memory, "peak PSS of the tree (MiB)")):
        axes.set_xscale("log", base=2)
        axes.set_xticks(list(WIDTHS), [str(n) for n in WIDTHS])
        axes.set_xlabel("sign-ins at once")
        axes.set_title(title)
        axes.grid(True, alpha=0.3)
        axes.set_ylim(bottom=0)
    rate.legend()
    figure.suptitle(f"WebAuthSession warm pool on {os.cpu_count()} cores, measured {time.strftime('%Y-%m-%d')}")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def standing(results, scaling):
    """Where this engine stands against each speed target (BENCHMARKS.md's table), from one run's results."""
    median = lambda name, index=0: stats([run[index] for run in results[name]["runs"]])[0]
    floor, warm = median("plain HTTP (lower bound)"), median("this engine, warm")
    selenium_webkit = results["Selenium + WebKitWebDriver"]
    cold = median("this engine, cold `webauth login`", 1)
    return [
        ("warm sign-in ≤ 3× the plain-HTTP bound (to the redirect)", f"{warm / floor:.1f}×"),
        ("the browser's own cost (warm minus the bound) ≤ 60 ms per sign-in", f"{warm - floor:.0f} ms"),
        ("cold `webauth login` ≤ 0.5× Selenium+WebKit's start (its Xvfb's too, as this engine's) + first login",
         f"{cold / (selenium_webkit['startup_ms'] + selenium_webkit['first_ms']):.2f}× "
         f"({cold / (selenium_webkit['startup_ms'] - selenium_webkit['display_ms'] + selenium_webkit['first_ms']):.2f}× against "
         f"its start with an Xvfb already up, {selenium_webkit['display_ms']:.0f} ms less)"),
        ("peak PSS of the cold tree (its Xvfb included) ≤ 0.4× Selenium+WebKit's (its Xvfb included)",
         f"{results['this engine, cold `webauth login`']['peak_pss'] / selenium_webkit['peak_pss']:.2f}×"),
        ("4 sign-ins at once ≥ 1.6× one at a time (sign-ins per minute)", f"{scaling[4]['per_minute'] / scaling[1]['per_minute']:.2f}×"),
    ]


def replace_section(path, start_text, end_text, lines, after=None):
    """Replaces the part of the report at `path` from `start_text` to `end_text` (after `after`) with `lines`."""
    with open(path) as f:
        report = f.read()
    start = report.index(start_text)
    end = report.find(end_text, report.index(after, start) if after else start)
    end = len(report) if end < 0 else end
    with open(path, "w") as f:
        f.write(report[:start] + "\n".join(lines) + report[end:])
    print("\n".join(lines))


# ---- report -----------------------------------------------------------------------------------

def stats(values):
    return statistics.median(values), min(values), max(values)


def fmt(values):
    median, low, high = stats(values)
    return f"{median:.0f} ({low:.0f}–{high:.0f})"


def on_embedded(bin_dir, home, measure):
    """`measure(provider)` against a new embedded provider, which is stopped after, and `home` removed."""
    provider = Embedded(bin_dir)
    try:
        return measure(provider)
    finally:
        provider.stop()
        shutil.rmtree(home, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True, help="the directory with webauth and webauth-bench")
    parser.add_argument("--runs", type=int, default=10, help="timed sign-ins of each client against each provider")
    parser.add_argument("--rounds", type=int, default=2, help="the interleaved rounds the --runs are spread over")
    parser.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--only-wrong-password", action="store_true",
                        help="measure only the wrong-password figure and replace its table in --output")
    parser.add_argument("--scaling", action="store_true",
                        help="measure only the scaling run (1, 2, 4, 8 at once) and replace its table in --output and docs/scaling.png")
    parser.add_argument("--broker", action="store_true",
                        help="measure only the sign-in broker and replace its table in --output")
    parser.add_argument("--attempts", action="store_true",
                        help="measure only the attempts at a faster warm sign-in and replace their table in bench/NOTES.md and --output")
    parser.add_argument("--reuse", action="store_true",
                        help="measure only warm sign-ins with and without kept views and replace their table in bench/NOTES.md")
    parser.add_argument("--soak", action="store_true",
                        help=f"measure only the soak of the kept setup ({SOAK_COUNT} sign-ins in a row) and replace its table in bench/NOTES.md")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="bench-home-")
    if args.soak:
        lines = on_embedded(args.bin, home, lambda provider: soak_lines(provider.name, *soak(provider, args.bin, home)))
        replace_section(os.path.join(ROOT, "bench/NOTES.md"), f"{SOAK_COUNT} warm sign-ins in a row", "\n\n", lines, after="| sign-ins |")
        return
    if args.reuse:
        lines = on_embedded(args.bin, home, lambda provider: reuse_lines(provider.name, reuse(provider, args.bin, home)))
        replace_section(os.path.join(ROOT, "bench/NOTES.md"), "Warm sign-ins against the", "\n\n", lines, after="| client |")
        return
    if args.only_wrong_password:
        lines = on_embedded(args.bin, home, lambda provider: wrong_password_lines(wrong_password(provider, args.bin, home, 3), 3))
        replace_section(args.output, "Seconds from start to exit of a cold", "\n\n", lines, after="| settle time |")
        return
    if args.broker:
        try:
            lines = broker_bench.lines(broker_bench.measure(args.bin, home))
        finally:
            shutil.rmtree(home, ignore_errors=True)
        replace_section(args.output, "The sign-in broker (`bench/run --broker`", "\n\n", lines, after="| measure |")
        return
    if args.attempts:
        lines = on_embedded(args.bin, home, lambda provider: attempt_lines(provider.name, attempts(provider, args.bin, home)))
        for path in (os.path.join(ROOT, "bench/NOTES.md"), args.output):  # NOTES.md: a full run rewrites the output from it
            replace_section(path, "Each attempt to speed up a warm sign-in", "\n\n", lines, after="| attempt |")
        return
    if args.scaling:
        scaling = {}
        for provider in providers(args.bin):
            try:
                scaling[provider.name] = scale(provider, args.bin, home)
            finally:
                provider.stop()
        shutil.rmtree(home, ignore_errors=True)
        replace_section(args.output, "Sign-ins per minute and peak PSS with", "\n\n", scaling_lines(scaling), after="| provider | at once |")
        return
    callback = CallbackServer()
    rows, notes, scaling, targets = [], {}, {}, {}
    started = providers(args.bin)  # all three up for the whole run: the rounds visit each in turn
    try:
        warm_up(args.bin, home)
        measured = interleaved(started, args.bin, args.runs, args.rounds, home)
        for provider in started:
            results = measured[provider.name]
            lower_redirect = stats([r for r, _ in results["plain HTTP (lower bound)"]["runs"]])[0]
            selenium_webkit = stats([r for r, _ in results["Selenium + WebKitWebDriver"]["runs"]])[0]
            for name, result in results.items():
                redirect = [r for r, _ in result["runs"]]
                tokens = [t for _, t in result["runs"]]
                median = stats(redirect)[0]
                rows.append([provider.name, name, fmt(redirect), fmt(tokens),
                             f"{result['startup_ms']:.0f}" if "startup_ms" in result else "–",
                             f"{result['peak_pss'] / 2**20:.0f}" if "peak_pss" in result else "–",
                             f"{result['cpu_s']:.2f}" if "cpu_s" in result else "–",
                             f"{median / lower_redirect:.1f}×", f"{median / selenium_webkit:.2f}×"])
                print(" | ".join(rows[-1]), file=sys.stderr)
        notes["sandbox"] = measured[started[0].name]["this engine, warm"]["sandbox"]
        for provider in started:
            scaling[provider.name] = scale(provider, args.bin, home)
            targets[provider.name] = standing(measured[provider.name], scaling[provider.name])
            if isinstance(provider, Embedded):
                notes["wrong password"] = wrong_password(provider, args.bin, home, 3)
            notes[provider.name] = {"idle_cpu_s": idle_cpu(provider, args.bin, home)}
            print(json.dumps(notes[provider.name]), file=sys.stderr)
        notes["broker"] = broker_bench.lines(broker_bench.measure(args.bin, home))
    finally:
        for provider in started:
            provider.stop()
        callback.stop()
        shutil.rmtree(home, ignore_errors=True)
    write_report(args, rows, notes, scaling, targets)


def write_report(args, rows, notes, scaling, targets):
    cpu = platform.processor() or platform.machine()
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except StopIteration:
        model = cpu
    lines = [
        "# Benchmarks", "",
        f"Machine: {model}, {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB; "
        f"{platform.platform()}; measured {time.strftime('%Y-%m-%d')}.",
        f"Command: `bench/run` (N = {args.runs} timed sign-ins of each client against each provider, in {args.rounds} interleaved",
        "rounds that visit every provider and client in turn, each client's share after a warm-up of its own; times in ms as",
        "median (min–max)).", "",
        "Each sign-in: the authorization request (PKCE S256, state, nonce), the login form (user name and password),",
        "the consent page (Allow), the redirect with the code caught, then the code exchanged for tokens. This engine and",
        "the HTTP client catch `com.example.webauth:/callback`; Selenium's and Playwright's browsers land on",
        "`http://127.0.0.1:8765/callback` (a driven browser cannot stop a custom-scheme navigation). Playwright (PyPI) drives",
        "Debian's Chromium, headless, with a new context per sign-in. django-oauth-toolkit hashes passwords with MD5 here",
        "(its benchmark instance only): PBKDF2's ~300 ms per login would pad the floor. The same Django app is served twice:",
        "by wsgiref's threaded server, as the tests serve it (HTTP/1.0: a connection per request), and by gunicorn as",
        "deployed (gthread worker, 1 worker × 4 threads, HTTP/1.1 keep-alive). \"Cold\" is the whole `webauth login",
        "--headless --script` process, from start to printed tokens, including its own Xvfb; Selenium + WebKitWebDriver's",
        "start-up starts an Xvfb of its own too (Xvfb's defaults, as `xvfb-run` does), as on a machine with no display. Peak PSS is the whole process tree",
        "(UI, web and network processes, the driver, Xvfb), CPU the seconds used by it over the whole run.",
        f"For this engine, {notes.pop('sandbox')} (Chromium runs with `--no-sandbox`).", "",
        "| provider | client | to redirect | to tokens | start-up | peak PSS MiB | CPU s | vs HTTP | vs Selenium+WebKit |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines += ["", "The benchmark's targets (goals, not gates) beside where this run stands:", "",
              "| target | " + " | ".join(targets) + " |", "|---|" + "---|" * len(targets)]
    for index, (target, _) in enumerate(next(iter(targets.values()))):
        lines.append(f"| {target} | " + " | ".join(figures[index][1] for figures in targets.values()) + " |")
    lines += [""] + scaling_lines(scaling)
    examples = sorted({f[:160] for runs in scaling.values() for r in runs.values() for f in r["failures"]})[:2]
    lines += [f"\nA failed sign-in: `{example}`" for example in examples]
    wrong = notes.pop("wrong password", None)
    lines += [""] + notes.pop("broker")
    lines += ["", "CPU the whole tree uses while a sign-in window waits 10 s for a person who does nothing:", "",
              "| provider | CPU s |", "|---|---|"]
    lines += [f"| {name} | {note['idle_cpu_s']:.2f} |" for name, note in notes.items()]
    if wrong:
        lines += [""] + wrong_password_lines(wrong, 3)
    with open(os.path.join(ROOT, "bench/NOTES.md")) as notes_file:
        lines += ["", notes_file.read().rstrip()]
    with open(args.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
