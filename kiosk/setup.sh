#!/usr/bin/env bash
# Installs what StopKiosk needs to build, test and run on Debian, skipping what is already there.
# Idempotent: safe to run before every build. Used by both README commands and by .ci/run.
set -euo pipefail

packages=(
  libzbar-dev zbar-tools          # decoding (and zbarimg, the peer the benchmarks compare against)
  libzxing-dev                    # zxing-cpp, the second decoder for what zbar misses
  libv4l-dev                      # camera capture through libv4l2
  libsqlite3-dev sqlite3          # route database (and the sqlite3 CLI, the import benchmark's peer)
  zlib1g-dev                      # GTFS zips (ZIPFoundation inflates through zlib on Linux)
  libpng-dev libjpeg62-turbo-dev  # replaying recorded frames and photos
  libqrencode-dev libcairo2-dev   # stop labels
  fonts-dejavu-core               # label and screen fonts
  poppler-utils                   # pdftoppm, for the label read-back tests
  tmux                            # the kiosk screen tests drive the program through tmux
  python3                         # the sample-feed scaler used by the benchmarks
  python3-pip                     # gtfs-realtime-bindings, the realtime tests' independent decoder
  protobuf-compiler               # protoc, for kiosk/tools/generate-realtime-proto.sh
  chromium chromium-driver        # kiosk serve: the browser tests (headless Chromium through WebDriver)
  libespeak-ng-dev espeak-ng-data # spoken departures (espeak-ng synthesis, its Spanish and English voices)
  alsa-utils                      # aplay, which plays the kiosk's speech on the sound device
  sox                             # the speech tests read WAV duration and loudness with 'sox FILE -n stat'
  librsvg2-bin                    # rsvg-convert: the map tests rasterise their SVGs
  wrk                             # HTTP load for 'kiosk-bench serve' (random stops through a Lua script)
  nginx                           # kiosk/deploy/nginx: the test runs it (own prefix, loopback ports) before two kiosk serve
  prometheus                      # promtool: checks and unit-tests kiosk/deploy/prometheus
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# Google's GTFS-Realtime Python bindings: the realtime tests cross-check the Swift decoder against them.
python3 -c 'import google.transit.gtfs_realtime_pb2' 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check gtfs-realtime-bindings >&2 \
  || python3 -m pip install -q --disable-pip-version-check --break-system-packages gtfs-realtime-bindings >&2 \
  || echo "setup: could not install gtfs-realtime-bindings; the realtime cross-check test will fail until it is" >&2

# kiosk serve's tests: the OpenAPI contract check and the browser tests (Selenium, axe-core).
for module in openapi_spec_validator:openapi-spec-validator openapi_schema_validator:openapi-schema-validator \
  selenium:selenium axe_selenium_python:axe-selenium-python; do
  python3 -c "import ${module%%:*}" 2>/dev/null \
    || python3 -m pip install -q --disable-pip-version-check "${module##*:}" >&2 \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages "${module##*:}" >&2 \
    || echo "setup: could not install ${module##*:}; the kiosk serve tests that need it will fail until it is" >&2
done

command -v swift >/dev/null || { echo "setup: swift is not on PATH (Swift 6.x toolchain required)" >&2; exit 1; }
