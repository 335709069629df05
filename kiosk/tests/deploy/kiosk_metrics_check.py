#!/usr/bin/env python3
"""`kiosk run`'s /metrics (`[metrics] listen`), read as Prometheus would, from a kiosk replaying the recorded demo
camera session with the sample network and its live scenario.

    kiosk_metrics_check.py KIOSK_BINARY

The kiosk listens on 127.0.0.1 port 0 (the port from its log line "metrics on http://…/metrics"). Checks: the
text parses as Prometheus's exposition format (every sample has a HELP and a TYPE); camera, frames, decoders and
scans (the replay's four stop labels and a Wi-Fi code) are counted under the names and labels `kiosk serve` uses
where they mean the same (stopkiosk_scans_total{status,source}); the database's generation, days left and health,
the live feed's age and match rate, speech errors and screen redraws are there; a new import raises the
generation; without `[metrics]` nothing listens. Waits are bounded by 600 s hang guards.
Prints one line per check and "kiosk metrics check: N checks, 0 failures"; exit 0 only if nothing failed.
"""
import datetime
import http.client
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from deploy_check import FEED, HANG_GUARD, ROOT, check, import_feed, summary, tidy

SESSION = os.path.join(ROOT, "assets", "demo", "session.y4m")
SCENARIO = os.path.join(ROOT, "assets", "realtime", "quito-scenario.pb")
def parse(text):
    """{(name, frozenset(labels)): value}, and the names with HELP and TYPE lines."""
    samples, helped, typed = {}, set(), {}
    for line in text.splitlines():
        if line.startswith("# HELP "):
            helped.add(line.split()[2])
        elif line.startswith("# TYPE "):
            typed[line.split()[2]] = line.split()[3]
        elif line and not line.startswith("#"):
            match = re.fullmatch(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)', line)
            if not match:
                raise ValueError(f"not a sample line: {line!r}")
            labels = frozenset(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', match.group(3) or ""))
            samples[(match.group(1), labels)] = float(match.group(4))
    return samples, helped, typed


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())))


def scrape(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
    try:
        connection.request("GET", "/metrics")
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read().decode()
    finally:
        connection.close()


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    kiosk = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="stopkiosk-metrics-")
    process = None
    try:
        database = os.path.join(folder, "routes.sqlite")
        for target in (database, os.path.join(folder, "next.sqlite")):
            import_feed(kiosk, FEED, target)
        config = os.path.join(folder, "kiosk.toml")
        with open(config, "w", encoding="utf-8") as f:
            f.write(f'home_stop = "1091"\n[database]\npath = "{database}"\n[speech]\nenabled = false\n'
                    f'[realtime]\ntrip_updates = "{SCENARIO}"\npoll_seconds = 5\n'
                    f'[metrics]\nlisten = "127.0.0.1:0"\n')
        log_path = os.path.join(folder, "kiosk.log")
        with open(os.path.join(folder, "screen.txt"), "wb") as screen:
            process = subprocess.Popen([kiosk, "run", "--config", config, "--replay", SESSION, "--log", log_path],
                                       stdout=screen, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                       env=dict(os.environ, XDG_CACHE_HOME=folder))
        port = None
        deadline = time.monotonic() + HANG_GUARD
        while port is None and time.monotonic() < deadline and process.poll() is None:
            found = re.findall(r"metrics on http://127\.0\.0\.1:(\d+)/metrics", open(log_path).read()) if os.path.exists(log_path) else []
            port = int(found[-1]) if found else None
            time.sleep(0.05)
        if not check(port is not None, "kiosk run logs where its /metrics listens",
                     open(log_path).read()[-800:] if os.path.exists(log_path) else "no log"):
            return 1

        # The replay shows four stop labels and a Wi-Fi code; wait until the kiosk counted them all and has live data.
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            status, content_type, text = scrape(port)
            samples, helped, typed = parse(text)
            scans = sum(v for (name, labels), v in samples.items() if name == "stopkiosk_scans_total")
            if scans >= 5 and value(samples, "stopkiosk_realtime_trip_match_ratio") is not None:
                break
            time.sleep(0.2)
        check(status == 200 and content_type.startswith("text/plain; version=0.0.4"), "/metrics answers Prometheus text",
              f"{status} {content_type}")
        names = {name for name, _ in samples}
        check(all(name in helped and name.removesuffix("_total") in {n.removesuffix("_total") for n in typed}
                  for name in names), "every metric has HELP and TYPE",
              f"{sorted(n for n in names if n not in helped)}")
        check(value(samples, "stopkiosk_scans_total", status="stop", source="camera") == 4,
              "stopkiosk_scans_total{status=stop,source=camera} counts the replay's four stop labels",
              f"{[(n, sorted(l), v) for (n, l), v in samples.items() if n == 'stopkiosk_scans_total']}")
        check(value(samples, "stopkiosk_scans_total", status="not_a_stop_code", source="camera") == 1,
              "and its Wi-Fi code as not_a_stop_code")
        check(value(samples, "stopkiosk_scans_total", status="forged", source="camera") == 0,
              "every scan status is there from the start (0 for forged)")
        frames = (value(samples, "stopkiosk_frames_total", result="decoded") or 0) + \
            (value(samples, "stopkiosk_frames_total", result="unchanged") or 0)
        check(frames >= 15 and (value(samples, "stopkiosk_frames_total", result="decoded") or 0) >= 5,
              f"stopkiosk_frames_total by result ({frames:.0f} frames)", f"{frames}")
        check(value(samples, "stopkiosk_decoder_hits_total", decoder="zbar") >= 5, "zbar's hits are counted")
        check(value(samples, "stopkiosk_decoder_enabled", decoder="zbar") == 1
              and value(samples, "stopkiosk_decoder_enabled", decoder="zxing") == 1, "the decoders in use")
        states = {dict(labels)["state"]: v for (name, labels), v in samples.items() if name == "stopkiosk_camera_state"}
        check(sum(states.values()) == 1 and set(states) == {"starting", "streaming", "unavailable", "none"},
              f"stopkiosk_camera_state names one state ({[s for s, v in states.items() if v == 1]})", f"{states}")
        camera_up = value(samples, "stopkiosk_camera_up")
        check(camera_up == (1 if states.get("streaming") == 1 else 0), "stopkiosk_camera_up agrees with it")
        check(value(samples, "stopkiosk_camera_last_frame_age_seconds") is not None,
              "seconds since the last frame")
        expected_days = (datetime.date(2027, 12, 31) - datetime.datetime.now(
            datetime.timezone(datetime.timedelta(hours=-5))).date()).days
        check(value(samples, "stopkiosk_timetable_days_left") == expected_days,
              f"stopkiosk_timetable_days_left is {expected_days} (the sample ends 2027-12-31)",
              f"{value(samples, 'stopkiosk_timetable_days_left')}")
        check(value(samples, "stopkiosk_database_generation") == 0 and value(samples, "stopkiosk_database_healthy") == 1,
              "database generation 0, healthy")
        check(value(samples, "stopkiosk_feed_age_seconds") is not None, "stopkiosk_feed_age_seconds")
        ratio = value(samples, "stopkiosk_realtime_trip_match_ratio")
        check(ratio is not None and 0 <= ratio <= 1, f"stopkiosk_realtime_trip_match_ratio ({ratio})")
        check(value(samples, "stopkiosk_realtime_feed_age_seconds", feed="trip_updates") is not None,
              "stopkiosk_realtime_feed_age_seconds{feed=trip_updates}")
        check(value(samples, "stopkiosk_speech_errors_total") == 0, "stopkiosk_speech_errors_total")
        check((value(samples, "stopkiosk_screen_redraws_total") or 0) >= 2, "stopkiosk_screen_redraws_total",
              f"{value(samples, 'stopkiosk_screen_redraws_total')}")

        # A new import over the database: the generation goes up once the kiosk took it.
        os.rename(os.path.join(folder, "next.sqlite"), database)
        deadline = time.monotonic() + HANG_GUARD
        generation = 0
        while time.monotonic() < deadline and generation < 1:
            generation = value(parse(scrape(port)[2])[0], "stopkiosk_database_generation") or 0
            time.sleep(0.2)
        check(generation == 1, "a new import raises stopkiosk_database_generation to 1", f"{generation}")
        process.send_signal(signal.SIGTERM)
        check(process.wait(timeout=HANG_GUARD) == 0, "kiosk run exits 0 on SIGTERM")
    finally:
        if process and process.poll() is None:
            process.kill()
            process.wait()
        tidy(folder)
    return summary("kiosk metrics")


if __name__ == "__main__":
    sys.exit(main())
