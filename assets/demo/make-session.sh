#!/usr/bin/env bash
# Re-records the demo's camera session (assets/demo/session.y4m + session.json) from labels drawn by the label
# generator. Deterministic: the same program and sample network give the same files.
#   bash assets/demo/make-session.sh [path/to/kiosk]
set -euo pipefail
cd "$(dirname "$0")/../.."
kiosk=${1:-}
if [ -z "$kiosk" ]; then
  swift build --product kiosk >&2
  kiosk=.build/debug/kiosk
fi
labels=$(mktemp -d)
trap 'rm -rf "$labels"' EXIT
# One single-layout PNG per stop the recorded passenger shows (see DemoRecording.shots in DemoCommand.swift).
for code in 2010 3001 1121 5007; do
  # The sample network's template is the placeholder address: proof copies, marked as such.
  "$kiosk" labels --stops "$code" --layout single --format png --dpi 300 --proof --out "$labels/$code.png" >/dev/null
done
"$kiosk" demo --record assets/demo --label-images "$labels"
