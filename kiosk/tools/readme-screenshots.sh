#!/bin/sh
# Makes the README's screenshots from the sample network: the /kiosk board at 1280x800 (a common kiosk panel) and the
# phone page of a stop at 390x844, with the sample's live scenario at 2026-11-25 08:00, in headless Chromium
# (chromium-driver + Selenium, as the browser tests use). Writes docs/screenshots/kiosk-board.png and
# docs/screenshots/phone-stop.png and refuses a PNG over 150 KB (the README stays light).
#
# Usage: kiosk/tools/readme-screenshots.sh [KIOSK]   (KIOSK: the program, default .build/debug/kiosk)
# Run from the repository's root after `swift build`.
set -eu

kiosk=${1:-.build/debug/kiosk}
out=docs/screenshots
[ -x "$kiosk" ] || { echo "readme-screenshots: $kiosk is not a program; run 'swift build' first" >&2; exit 2; }
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] ||
    { echo "readme-screenshots: needs /usr/bin/chromium and /usr/bin/chromedriver (kiosk/setup.sh)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM

cat > "$work/kiosk.toml" <<EOF
language = "en"
home_stop = "MQ09"
[realtime]
trip_updates = "$(pwd)/assets/realtime/quito-scenario.pb"
alerts = ["$(pwd)/assets/realtime/quito-scenario.pb"]
EOF
"$kiosk" serve --port 0 --config "$work/kiosk.toml" --scan-source off --at 2026-11-25T08:00 > "$work/server.log" 2>&1 &
server=$!
base=""
for _ in $(seq 1 600); do
    base=$(sed -n 's/.*listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)
    [ -n "$base" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
[ -n "$base" ] || { echo "readme-screenshots: kiosk serve did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

python3 - "$base" "$out" <<'EOF'
import os, sys, time
sys.path.insert(0, "kiosk/tests/web")
from browser_check import browser
from layout_checks import set_viewport
base, out = sys.argv[1], sys.argv[2]
driver = browser(1280, 800)
try:
    set_viewport(driver, 1280, 800)
    driver.get(base + "/kiosk?lang=en")
    for _ in range(600):
        if driver.execute_script("return Number(document.getElementById('board').dataset.loads) || 0"):
            break
        time.sleep(0.1)
    time.sleep(0.5)
    driver.save_screenshot(os.path.join(out, "kiosk-board.png"))
    set_viewport(driver, 390, 844)
    driver.get(base + "/s/1091?lang=en")
    time.sleep(1)
    driver.save_screenshot(os.path.join(out, "phone-stop.png"))
finally:
    driver.quit()
EOF

for png in "$out/kiosk-board.png" "$out/phone-stop.png"; do
    size=$(wc -c < "$png")
    echo "$png: $size bytes"
    [ "$size" -le 153600 ] || { echo "readme-screenshots: $png is over 150 KB" >&2; exit 1; }
done
