"""What the deployment checks (nginx_check.py, notify_check.py, kiosk_metrics_check.py) share: the repository's
paths, the hang guard, one printed line per check with the summary and exit code, and importing a feed with the
kiosk under test."""
import os
import shutil
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
FEED = os.path.join(ROOT, "assets", "sample-network")
HANG_GUARD = 600  # seconds: only against a hang, never a timing assertion

failures = []
checks = 0


def check(condition, what, detail=""):
    global checks
    checks += 1
    print(("ok   " if condition else "FAIL ") + what + ("" if condition else f": {detail}"), flush=True)
    if not condition:
        failures.append(what)
    return condition


def import_feed(kiosk, feed, database):
    result = subprocess.run([kiosk, "import", feed, "--db", database, "--progress", "off"], capture_output=True,
                            text=True, timeout=HANG_GUARD)
    if result.returncode != 0:
        raise SystemExit(f"kiosk import {feed} failed: {result.stderr}")


def tidy(folder):
    """Keeps the check's folder for inspection after a failure, else removes it."""
    if failures:
        print(f"kept {folder} for inspection", flush=True)
    else:
        shutil.rmtree(folder, ignore_errors=True)


def summary(name):
    """Prints "NAME check: N checks, F failures"; the exit code (0 only if nothing failed)."""
    print(f"{name} check: {checks} checks, {len(failures)} failures", flush=True)
    return 1 if failures else 0
