#!/usr/bin/env python3
"""systemd's notify protocol as `kiosk serve` and `kiosk run` speak it, against a socket this script owns.

    notify_check.py KIOSK_BINARY

A unix datagram socket stands in for systemd: each program runs with NOTIFY_SOCKET naming it and WATCHDOG_USEC=2 s
(as `Type=notify` with `WatchdogSec=2` would set them). Checks:

  kiosk serve: READY=1 once listening (with a STATUS naming the address), WATCHDOG=1 pings (each after a health
               probe of its own /health), STOPPING=1 on SIGTERM, exit 0.
  kiosk run:   READY=1 once the first screen is drawn, WATCHDOG=1 pings from the screen loop; with the test hook
               (KIOSK_TEST_HANG_FILE) the loop hangs: no ping arrives for three watchdog intervals (a hung kiosk
               would be restarted); the hook released, pings resume; STOPPING=1 on SIGTERM, exit 0.

Waits are bounded by 600 s hang guards. The three intervals of silence are not a timing assertion: a hung loop
cannot ping however slow the machine, so the check can only fail if something other than the loop pings.
Prints one line per check and "notify check: N checks, 0 failures"; exit 0 only if nothing failed.
"""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from deploy_check import FEED, HANG_GUARD, check, import_feed, summary, tidy

WATCHDOG_USEC = 2_000_000

class NotifySocket:
    def __init__(self, path):
        self.path = path
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(path)

    def receive(self, timeout=HANG_GUARD):
        self.socket.settimeout(timeout)
        try:
            return self.socket.recv(4096).decode()
        except socket.timeout:
            return None

    def wait_for(self, wanted, process, limit=50):
        """Messages until one contains `wanted` (at most `limit` messages, each within the hang guard)."""
        seen = []
        for _ in range(limit):
            message = self.receive()
            if message is None:
                break
            seen.append(message)
            if wanted in message.split("\n"):
                return message, seen
        return None, seen

    def drain(self):
        messages = []
        self.socket.setblocking(False)
        try:
            while True:
                messages.append(self.socket.recv(4096).decode())
        except BlockingIOError:
            pass
        return messages


def environment(notify_path, extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
    env.update({"NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": str(WATCHDOG_USEC)})
    env.update(extra or {})
    return env


def check_serve(kiosk, folder, database):
    notify = NotifySocket(os.path.join(folder, "serve.sock"))
    log_path = os.path.join(folder, "serve.log")
    with open(log_path, "wb") as log:
        process = subprocess.Popen([kiosk, "serve", "--db", database, "--port", "0"], stdout=log,
                                   stderr=subprocess.STDOUT, env=environment(notify.path))
    try:
        ready, seen = notify.wait_for("READY=1", process)
        check(ready is not None and "STATUS=listening on http://127.0.0.1:" in ready,
              "kiosk serve: READY=1 with its address once listening", f"{seen} {open(log_path).read()[-500:]}")
        pings = 0
        for _ in range(3):
            message, seen = notify.wait_for("WATCHDOG=1", process)
            pings += message is not None
        check(pings == 3, "kiosk serve: WATCHDOG=1 pings arrive", f"{pings} pings; last messages {seen}")
        process.send_signal(signal.SIGTERM)
        stopping, seen = notify.wait_for("STOPPING=1", process)
        check(stopping is not None, "kiosk serve: STOPPING=1 on SIGTERM", f"{seen}")
        status = process.wait(timeout=HANG_GUARD)
        check(status == 0, "kiosk serve: exit 0 after SIGTERM", f"{status} {open(log_path).read()[-500:]}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def check_run(kiosk, folder, database):
    notify = NotifySocket(os.path.join(folder, "run.sock"))
    config = os.path.join(folder, "kiosk.toml")
    with open(config, "w", encoding="utf-8") as f:
        f.write(f'home_stop = "1091"\n[database]\npath = "{database}"\n[speech]\nenabled = false\n')
    hang = os.path.join(folder, "hang")
    log_path = os.path.join(folder, "run.log")
    with open(os.path.join(folder, "screen.txt"), "wb") as screen:
        process = subprocess.Popen(
            [kiosk, "run", "--config", config, "--no-camera", "--log", log_path], stdout=screen,
            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
            env=environment(notify.path, {"KIOSK_TEST_HANG_FILE": hang, "XDG_CACHE_HOME": folder}))
    try:
        ready, seen = notify.wait_for("READY=1", process)
        check(ready is not None, "kiosk run: READY=1 once the first screen is drawn", f"{seen}")
        pings = 0
        for _ in range(3):
            message, seen = notify.wait_for("WATCHDOG=1", process)
            pings += message is not None
        check(pings == 3, "kiosk run: WATCHDOG=1 pings arrive from the screen loop", f"{pings}; {seen}")

        # The test hook: the loop stops at its next pass and says so in the file.
        with open(hang, "w") as f:
            f.write("")
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline and open(hang).read() != "hung\n":
            time.sleep(0.05)
        check(open(hang).read() == "hung\n", "kiosk run: the test hook hung the screen loop")
        notify.drain()  # pings sent before the loop reached the hook
        silence = notify.receive(timeout=3 * WATCHDOG_USEC / 1_000_000)
        check(silence is None, "kiosk run: no ping while the loop hangs (three watchdog intervals)", f"{silence!r}")
        check(process.poll() is None, "kiosk run: the process itself still runs (only systemd would end it)")
        os.remove(hang)
        resumed, seen = notify.wait_for("WATCHDOG=1", process)
        check(resumed is not None, "kiosk run: pings resume once the loop runs again", f"{seen}")

        process.send_signal(signal.SIGTERM)
        stopping, seen = notify.wait_for("STOPPING=1", process)
        check(stopping is not None, "kiosk run: STOPPING=1 on SIGTERM", f"{seen}")
        status = process.wait(timeout=HANG_GUARD)
        check(status == 0, "kiosk run: exit 0 after SIGTERM", f"{status} {open(log_path).read()[-500:]}")
    finally:
        if os.path.exists(hang):
            os.remove(hang)
        if process.poll() is None:
            process.kill()
            process.wait()


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    kiosk = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="stopkiosk-notify-")
    try:
        database = os.path.join(folder, "routes.sqlite")
        import_feed(kiosk, FEED, database)
        check_serve(kiosk, folder, database)
        check_run(kiosk, folder, database)
    finally:
        tidy(folder)
    return summary("notify")


if __name__ == "__main__":
    sys.exit(main())
