#!/usr/bin/env bash
# The browser kiosk: Chromium in kiosk mode on /kiosk of a local 'kiosk serve' (stopkiosk-web.service), started
# from the display session (e.g. an autostart entry of the kiosk user's X or Wayland session):
#   kiosk/stopkiosk-browser.sh [URL]        default http://127.0.0.1:8080/kiosk
# Waits for the server, then keeps Chromium running: if it exits it is started again. The page itself shows
# "information unavailable" and reconnects when the server restarts.
# Autoplay is allowed so that a scan can be said aloud without a touch first ([speech] auto_speak).
set -euo pipefail
url="${1:-http://127.0.0.1:8080/kiosk}"
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "stopkiosk-browser: chromium is not installed (apt-get install chromium)" >&2; exit 1; }
health="${url%/kiosk*}/health"
for _ in $(seq 1 60); do
  curl -fsS -o /dev/null "$health" 2>/dev/null && break
  sleep 1
done
profile="${XDG_RUNTIME_DIR:-/tmp}/stopkiosk-chromium"
while true; do
  "$browser" --kiosk --app="$url" --user-data-dir="$profile" --no-first-run --noerrdialogs \
    --disable-session-crashed-bubble --disable-infobars --disable-translate --overscroll-history-navigation=0 \
    --check-for-update-interval=31536000 --autoplay-policy=no-user-gesture-required || true
  sleep 2
done
