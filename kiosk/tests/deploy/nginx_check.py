#!/usr/bin/env python3
"""Debian's nginx with kiosk/deploy/nginx/stopkiosk.conf in front of two real `kiosk serve` instances.

    nginx_check.py KIOSK_BINARY

Everything runs on loopback in a temporary prefix owned by an unprivileged user (nobody when run as root):
nginx with `-p PREFIX -c PREFIX/nginx.conf` and `daemon off`, its listen port, upstream ports, cache and log
paths rewritten, nothing else of the file changed. Checks, in order:

  1. answers come from both instances (their X-Served-By header);
  2. a repeated stop view is a cache HIT (MISS first), with the instance's ETag, and If-None-Match gets 304;
     /metrics and /metrics/ are closed; the language of a cached page is the one the instance picks for the
     reader's Accept-Language (q-values, "es;q=0, en" is English);
  3. gzip when asked, for JSON, HTML and SVG, and the same bytes once inflated;
  4. a flood of plans from 127.0.0.1 gets 429 problem+json (with Retry-After) after its allowance of 11, a forged
     X-Forwarded-For does not escape it, nor does another spelling of the path (/api/v1/plan/, /api/v1//plan,
     //api/v1/plan, /plan/, a journey map, /speech/) while they reach the plan route for another client,
     127.0.0.2 is still served, and the instances' access log names the client (nginx's X-Real-IP), not nginx;
  5. one instance killed (SIGKILL) under load: no failed request, then answers from the other only;
  6. a new database imported on each instance in turn under load: no failed request, and every stop view is
     all old feed or all new feed (the stop's name and its route's long name change together);
  7. every instance stopped: a cached stop view is still served, anything else is 503 problem+json.

Loops are bounded by request counts; the only waits are 600 s hang guards. Prints one line per check and
"nginx check: N checks, 0 failures" at the end; exit 0 only if nothing failed.
"""
import gzip
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from deploy_check import FEED, HANG_GUARD, ROOT, check, import_feed, summary, tidy

CONF = os.path.join(ROOT, "kiosk", "deploy", "nginx", "stopkiosk.conf")
PLAN = "/api/v1/plan?from=1091&to=1122&at=2026-11-25T08:00"
STOP_VIEW = "/api/v1/stops/1091?at=2026-11-25T08:00"
OLD_NAME, NEW_NAME = "El Ejido", "El Ejido Renovado"
OLD_ROUTE, NEW_ROUTE = "Quitumbe – El Labrador", "Quitumbe – El Labrador (nueva)"

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name):
        return self.headers.get(name.lower())


def get(port, path, headers=None, source="127.0.0.1"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD, source_address=(source, 0))
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, body)
    finally:
        connection.close()


def try_get(port, path, headers=None, source="127.0.0.1"):
    """An answer, or an Answer with status 0 and the error as body when the request itself failed."""
    try:
        return get(port, path, headers, source)
    except (OSError, http.client.HTTPException) as error:
        return Answer(0, {}, repr(error).encode())


def renamed_feed(directory):
    """The sample network with the stop 1091's name and its route's long name changed: the "new import"."""
    feed = os.path.join(directory, "feed-new")
    shutil.copytree(FEED, feed)
    for name, old, new in (("stops.txt", "MQ09A,1091,El Ejido,", f"MQ09A,1091,{NEW_NAME},"),
                           ("routes.txt", f"MQ-L1,MQ,L1,{OLD_ROUTE},", f"MQ-L1,MQ,L1,{NEW_ROUTE},")):
        path = os.path.join(feed, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if old not in text:
            raise SystemExit(f"{path}: the line starting '{old}' is not there (the sample network changed?)")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new, 1))
    return feed


class Instance:
    """One `kiosk serve --port 0 --instance NAME`, its port read from its 'listening on' line."""

    def __init__(self, kiosk, name, database, log_path):
        self.kiosk, self.name, self.database, self.log_path = kiosk, name, database, log_path
        self.process = None
        self.port = None

    def start(self):
        """Starts on a free port the first time, on the same port again after a stop (nginx names it)."""
        port = self.port or 0
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [self.kiosk, "serve", "--db", self.database, "--host", "127.0.0.1", "--port", str(port), "--instance",
             self.name], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as f:
                found = re.findall(rb"listening on http://127\.0\.0\.1:(\d+)", f.read())
            if found:
                self.port = int(found[-1])
                return
            if self.process.poll() is not None:
                raise SystemExit(f"kiosk serve {self.name} exited {self.process.returncode}: {open(self.log_path).read()}")
            time.sleep(0.1)
        raise SystemExit(f"kiosk serve {self.name} did not start within {HANG_GUARD} s")

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=HANG_GUARD)


def page_language(answer):
    """The language a phone page is in (its <html lang>), or None."""
    found = re.search(rb'<html lang="([a-z]+)"', answer.body) if answer.status == 200 else None
    return found.group(1).decode() if found else None


def stop_view_names(answer):
    view = json.loads(answer.body)
    routes = {entry["route"]["long_name"] for entry in view["routes"] if entry["route"]["id"] == "MQ-L1"}
    routes |= {departure["route"]["long_name"] for departure in view["departures"] if departure["route"]["id"] == "MQ-L1"}
    return view["stop"]["name"], sorted(routes)


class Load(threading.Thread):
    """Requests through nginx one after another until stopped (at most `limit`), each from its own loopback
    address in 127.0.1.0/24 so that no client's allowance is reached, each with an `at` nobody asked for yet so the
    cache cannot answer it: every request reaches an instance."""

    def __init__(self, port, first_minute, limit=5000):
        super().__init__(daemon=True)
        self.port, self.minute, self.limit = port, first_minute, limit
        self.answers = []
        self.stopping = threading.Event()

    def run(self):
        for index in range(self.limit):
            if self.stopping.is_set():
                return
            minute = self.minute + index
            at = f"2026-12-{1 + minute // 1440:02d}T{minute % 1440 // 60:02d}:{minute % 60:02d}"
            source = f"127.0.1.{1 + index % 250}"
            path = f"/api/v1/stops/1091?at={at}" if index % 3 else "/health"
            self.answers.append((path, try_get(self.port, path, source=source)))

    def finish(self):
        self.stopping.set()
        self.join(HANG_GUARD)
        return self.answers


def wait_for_name(port, name):
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        answer = try_get(port, STOP_VIEW)
        if answer.status == 200 and stop_view_names(answer)[0] == name:
            return True
        time.sleep(0.2)
    return False


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    kiosk = os.path.abspath(sys.argv[1])
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        raise SystemExit("nginx is not installed (kiosk/setup.sh installs Debian's nginx)")
    prefix = tempfile.mkdtemp(prefix="stopkiosk-nginx-")
    os.chmod(prefix, 0o755)
    instances = []
    nginx_process = None
    try:
        # Two instances, each with its own copy of the database (as on two hosts).
        old_db = os.path.join(prefix, "old.sqlite")
        import_feed(kiosk, FEED, old_db)
        new_feed = renamed_feed(prefix)
        for name in ("a", "b"):
            database = os.path.join(prefix, f"{name}.sqlite")
            shutil.copyfile(old_db, database)
            instance = Instance(kiosk, name, database, os.path.join(prefix, f"serve-{name}.log"))
            instance.start()
            instances.append(instance)

        # nginx: the shipped file with loopback ports and the prefix's paths, in a minimal nginx.conf.
        port = free_port()
        with open(CONF, encoding="utf-8") as f:
            conf = f.read()
        rewritten = conf
        upstreams = [f"server 127.0.0.1:{instance.port} " for instance in instances]
        for original, new in [("server 127.0.0.1:8081 ", upstreams[0]), ("server 127.0.0.1:8082 ", upstreams[1]),
                              ("listen 80;", f"listen 127.0.0.1:{port};"), ("listen [::]:80;\n", ""),
                              ("/var/cache/nginx/stopkiosk", os.path.join(prefix, "cache")),
                              ("/var/log/nginx/", prefix + "/")]:
            if original not in rewritten:
                raise SystemExit(f"{CONF}: '{original.strip()}' is not there to rewrite")
            rewritten = rewritten.replace(original, new)
        with open(os.path.join(prefix, "stopkiosk.conf"), "w", encoding="utf-8") as f:
            f.write(rewritten)
        with open(os.path.join(prefix, "nginx.conf"), "w", encoding="utf-8") as f:
            f.write(f"""daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    client_body_temp_path {prefix}/client_temp;
    proxy_temp_path {prefix}/proxy_temp;
    fastcgi_temp_path {prefix}/fastcgi_temp;
    uwsgi_temp_path {prefix}/uwsgi_temp;
    scgi_temp_path {prefix}/scgi_temp;
    include {prefix}/stopkiosk.conf;
}}
""")
        command = [nginx, "-p", prefix, "-c", os.path.join(prefix, "nginx.conf"), "-e", os.path.join(prefix, "error.log")]
        run_as = []
        if os.geteuid() == 0:
            # Never nginx as root: the prefix belongs to nobody, and nginx runs as nobody.
            nobody = pwd.getpwnam("nobody")
            for directory, _, files in os.walk(prefix):
                os.chown(directory, nobody.pw_uid, nobody.pw_gid)
                for name in files:
                    os.chown(os.path.join(directory, name), nobody.pw_uid, nobody.pw_gid)
            run_as = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", "--"]
        test = subprocess.run(run_as + command + ["-t"], capture_output=True, text=True, timeout=HANG_GUARD)
        check(test.returncode == 0, "nginx -t accepts stopkiosk.conf", test.stderr)
        nginx_process = subprocess.Popen(run_as + command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline and try_get(port, "/health").status != 200:
            if nginx_process.poll() is not None:
                raise SystemExit(f"nginx exited {nginx_process.returncode}: {open(os.path.join(prefix, 'error.log')).read()}")
            time.sleep(0.1)

        # 1. Both instances answer.
        served_by = set()
        for index in range(50):
            served_by.add(get(port, f"/api/v1/stops/1091?at=2026-11-26T09:{index:02d}").header("X-Served-By"))
            if served_by == {"a", "b"}:
                break
        check(served_by == {"a", "b"}, "answers come from both instances", f"X-Served-By seen: {served_by}")

        # 2. A repeated stop view is a cache hit.
        first, second = get(port, STOP_VIEW), get(port, STOP_VIEW)
        check(first.status == 200 and first.header("X-Cache-Status") == "MISS", "a first stop view is a MISS",
              f"{first.status} {first.header('X-Cache-Status')}")
        check(second.status == 200 and second.header("X-Cache-Status") == "HIT", "the same stop view again is a HIT",
              f"{second.status} {second.header('X-Cache-Status')}")
        check(second.body == first.body and second.header("ETag") == first.header("ETag") and first.header("ETag"),
              "the HIT is the instance's answer with its ETag", f"{first.header('ETag')} / {second.header('ETag')}")
        check(second.header("X-Served-By") in ("a", "b"), "the cached answer names the instance that rendered it",
              f"{second.header('X-Served-By')}")
        revalidated = get(port, STOP_VIEW, {"If-None-Match": first.header("ETag") or ""})
        check(revalidated.status == 304, "If-None-Match with the ETag gets 304 from the cache", f"{revalidated.status}")
        other_language = get(port, STOP_VIEW, {"Accept-Language": "en-GB,en;q=0.9"})
        check(other_language.header("X-Cache-Status") == "MISS", "another language is another cache entry",
              f"{other_language.header('X-Cache-Status')}")
        same_language = get(port, STOP_VIEW, {"Accept-Language": "en-US, fr;q=0.5"})
        check(same_language.header("X-Cache-Status") == "HIT" and same_language.body == other_language.body,
              "two readers preferring English share one entry", f"{same_language.header('X-Cache-Status')}")
        for path in ("/metrics", "/metrics/", "//metrics", "/metrics//"):
            closed = get(port, path)
            check(closed.status == 404 and b"stopkiosk_" not in closed.body, f"{path} is not public through nginx",
                  f"{closed.status} {closed.body[:200]}")

        # 2b. The language nginx keys the cache on is the one the instance picks for that header (q-values, ties in
        # order, q=0 never): each header through nginx (twice: the second may be a HIT of whatever shares its key)
        # against the same header sent to an instance directly. The plain "es" and "en" go first, so a header that
        # nginx wrongly took for one of them would get that cached page.
        direct_port = instances[0].port
        cases = ["es", "en", "es;q=0, en", "en;q=0, es", "es;q=0.5, en", "fr, en;q=0.8, es;q=0.9", "es, en;q=2",
                 "es;q=1, en", "EN-us, es", "de, es-EC", "de", "", ";en", "-en", "es x, en", "en_US, es",
                 "es;q=0.9, en;q=0.9", "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5"]
        wrong = []
        for header in cases:
            expected = page_language(get(direct_port, "/s/1091", {"Accept-Language": header}))
            if expected is None:
                wrong.append((header, "no page from the instance"))
            for _ in range(2):
                through = get(port, "/s/1091", {"Accept-Language": header}, source="127.0.0.4")
                if page_language(through) != expected:
                    wrong.append((header, expected, page_language(through), through.header("X-Cache-Status")))
        check(not wrong,
              f"the cached page's language is the instance's choice for all {len(cases)} Accept-Language headers",
              f"{wrong}")

        # 3. gzip when asked.
        for path, kind in [(STOP_VIEW, "application/json"), ("/s/1091", "text/html"),
                           ("/api/v1/stops/1091/map.svg", "image/svg+xml")]:
            plain = get(port, path)
            packed = get(port, path, {"Accept-Encoding": "gzip"})
            same = packed.header("Content-Encoding") == "gzip" and gzip.decompress(packed.body) == plain.body
            check(plain.status == 200 and plain.header("Content-Type", ).startswith(kind) and same
                  and plain.header("Content-Encoding") is None and len(packed.body) < len(plain.body),
                  f"{kind} is gzipped when asked ({len(plain.body)} -> {len(packed.body)} bytes), plain otherwise",
                  f"{plain.status} {plain.header('Content-Type')} {packed.header('Content-Encoding')}")

        # 4. A flood of plans from one client: 429 after its allowance (1 + burst 10), another client served.
        statuses = []
        for _ in range(200):
            answer = get(port, PLAN)
            statuses.append(answer.status)
            if answer.status == 429:
                break
        check(all(status == 200 for status in statuses[:11]), "the first 11 plans of a client are answered",
              f"{statuses[:11]}")
        check(statuses[-1] == 429, f"then 429 (after {len(statuses) - 1} plans)", f"{statuses[-12:]}")
        too_many = get(port, PLAN)
        problem = json.loads(too_many.body) if too_many.status == 429 else {}
        check(too_many.status == 429 and too_many.header("Content-Type") == "application/problem+json"
              and problem.get("status") == 429 and too_many.header("Retry-After") == "60",
              "429 is problem+json with Retry-After", f"{too_many.status} {too_many.header('Content-Type')} {too_many.body[:200]}")
        forged = get(port, PLAN, {"X-Forwarded-For": "203.0.113.9"})
        check(forged.status == 429, "a forged X-Forwarded-For does not escape the limit", f"{forged.status}")
        # The same plan spelled otherwise reaches the instance's plan route (its router skips empty segments):
        # nginx must count it against the same allowance. A journey map makes a plan and counts as one; the spoken
        # stop view shares the plans' allowance.
        query = PLAN.split("?", 1)[1]
        dodged = []
        for path in (f"/api/v1/plan/?{query}", f"/api/v1//plan?{query}", f"//api/v1/plan?{query}",
                     f"/plan/?{query}", f"/plan?{query}", f"/api/v1/plan/map.svg?{query}&option=1",
                     "/api/v1/stops/1091/speech/", "/api/v1/stops/1091//speech"):
            answer = get(port, path)
            if answer.status != 429 or b"This address sent more requests" not in answer.body:
                dodged.append((path, answer.status))
        check(not dodged, "every other spelling of a plan (and speech) is limited by nginx too", f"{dodged}")
        respelled = get(port, f"/api/v1//plan/?{query}", source="127.0.0.5")
        check(respelled.status == 200 and b'"options"' in respelled.body,
              "while another client's respelled plan reaches the plan route", f"{respelled.status} {respelled.body[:200]}")
        other = get(port, PLAN, source="127.0.0.2")
        check(other.status == 200 and b'"options"' in other.body, "another client (127.0.0.2) is still served",
              f"{other.status} {other.body[:200]}")
        stop_view = get(port, "/api/v1/stops/1092")
        check(stop_view.status == 200, "the limited client still gets the API (its own allowance)", f"{stop_view.status}")
        with open(os.path.join(prefix, "stopkiosk.access.log"), encoding="utf-8") as f:
            log = f.read()
        check(re.search(r"^127\.0\.0\.2 .*GET /api/v1/plan", log, re.M) is not None,
              "the access log names the real client", log[-500:])
        # The instances' own access logs name the client nginx names in X-Real-IP, not nginx's 127.0.0.1 (127.0.0.5's
        # respelled plan above reached an instance; 127.0.0.2's was a cache HIT).
        instance_logs = ""
        for instance in instances:
            with open(instance.log_path, encoding="utf-8", errors="replace") as f:
                instance_logs += f.read()
        check(re.search(r"127\.0\.0\.5 GET '/api/v1//plan/' 200", instance_logs) is not None,
              "the instances' access log names the client nginx names, not nginx",
              "\n".join(line for line in instance_logs.splitlines() if "/api/v1/plan" in line)[-600:])

        # 5. One instance killed under load: no failed request.
        load = Load(port, first_minute=0)
        load.start()
        while len(load.answers) < 30 and load.is_alive():
            time.sleep(0.05)
        instances[1].stop(signal.SIGKILL)
        count_at_kill = len(load.answers)
        while len(load.answers) < count_at_kill + 120 and load.is_alive():
            time.sleep(0.05)
        answers = load.finish()
        failed = [(path, answer.status, answer.body[:120]) for path, answer in answers if answer.status != 200]
        check(not failed, f"instance b killed under load: {len(answers)} requests, none failed", f"{failed[:5]}")
        after = [answer.header("X-Served-By") for _, answer in answers[count_at_kill + 20:]]
        check(after and set(after) == {"a"}, "after the kill every answer comes from a", f"{set(after)}")

        # 6. A new database imported on each instance in turn, under load. First b back on its port: nginx tries it
        # again once its fail_timeout (10 s) has passed.
        instances[1].start()
        served_by = set()
        deadline = time.monotonic() + HANG_GUARD
        index = 0
        while served_by != {"a", "b"} and time.monotonic() < deadline:
            minute = 20_000 + index
            at = f"2026-12-{1 + minute // 1440:02d}T{minute % 1440 // 60:02d}:{minute % 60:02d}"
            served_by.add(get(port, f"/api/v1/stops/1091?at={at}", source="127.0.0.3").header("X-Served-By"))
            index += 1
            time.sleep(0.1)
        check(served_by == {"a", "b"}, "b is back in the upstream after its restart", f"{served_by}")
        load = Load(port, first_minute=10_000)
        load.start()
        for instance in instances:
            staging = os.path.join(prefix, f"new-{instance.name}.sqlite")
            import_feed(kiosk, new_feed, staging)
            # What `kiosk import` on that host does: the new file renamed over the database in service.
            os.rename(staging, instance.database)
            check(wait_for_name(instance.port, NEW_NAME), f"instance {instance.name} serves the new import")
        answers = load.finish()
        failed = [(path, answer.status, answer.body[:120]) for path, answer in answers if answer.status != 200]
        check(not failed, f"a new import on each instance in turn: {len(answers)} requests, none failed",
              f"{failed[:5]}")
        pairs = {}
        for path, answer in answers:
            if path.startswith("/api/v1/stops/") and answer.status == 200:
                name, routes = stop_view_names(answer)
                pairs[(name, tuple(routes))] = pairs.get((name, tuple(routes)), 0) + 1
        allowed = {(OLD_NAME, (OLD_ROUTE,)), (NEW_NAME, (NEW_ROUTE,))}
        check(set(pairs) <= allowed and len(pairs) == 2,
              "every stop view is all old or all new import (" + ", ".join(f"{n}: {c}" for (n, _), c in pairs.items()) + ")",
              f"{pairs}")

        # 7. Every instance gone: what the cache holds is still served; anything else is 503 problem+json.
        for instance in instances:
            instance.stop()
        kept = get(port, STOP_VIEW)
        check(kept.status == 200 and kept.header("X-Cache-Status") in ("HIT", "STALE"),
              f"with every instance down a cached stop view is still served ({kept.header('X-Cache-Status')})",
              f"{kept.status} {kept.header('X-Cache-Status')}")
        gone = get(port, "/api/v1/stops/1092?at=2026-11-28T10:00")
        check(gone.status == 503 and gone.header("Content-Type") == "application/problem+json"
              and json.loads(gone.body).get("status") == 503 and gone.header("Retry-After") == "5",
              "and an answer it does not hold is 503 problem+json with Retry-After",
              f"{gone.status} {gone.header('Content-Type')} {gone.body[:200]}")
    finally:
        if nginx_process and nginx_process.poll() is None:
            nginx_process.send_signal(signal.SIGQUIT)
            try:
                nginx_process.wait(timeout=HANG_GUARD)
            except subprocess.TimeoutExpired:
                nginx_process.kill()
        for instance in instances:
            instance.stop()
        tidy(prefix)
    return summary("nginx")


if __name__ == "__main__":
    sys.exit(main())
