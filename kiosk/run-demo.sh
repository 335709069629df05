#!/usr/bin/env bash
# The README's main-job command: installs what is missing, builds the release binary, and runs the kiosk demo
# on the embedded default (the Quito sample network in assets/; no camera needed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash kiosk/setup.sh
swift build -c release --product kiosk
exec .build/release/kiosk demo "$@"
