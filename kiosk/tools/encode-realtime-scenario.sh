#!/usr/bin/env bash
# Encodes the sample network's live scenario, assets/realtime/quito-scenario.textproto (protobuf text format),
# into the binary GTFS-Realtime feed beside it, quito-scenario.pb, with Debian's protoc (protobuf-compiler,
# installed by kiosk/setup.sh). The .pb is committed, so the demo and the tests never need protoc; run this after
# editing the .textproto and commit both. With --check it only verifies that the committed .pb is up to date.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
proto_dir="$root/Sources/Realtime/Proto"
source="$root/assets/realtime/quito-scenario.textproto"
target="$root/assets/realtime/quito-scenario.pb"

command -v protoc >/dev/null || { echo "encode-realtime-scenario: protoc is missing: apt-get install protobuf-compiler (or run kiosk/setup.sh)" >&2; exit 1; }

scratch="$(mktemp "${TMPDIR:-/tmp}/quito-scenario.XXXXXX")"
trap 'rm -f "$scratch"' EXIT
protoc --proto_path="$proto_dir" --encode=transit_realtime.FeedMessage gtfs-realtime.proto <"$source" >"$scratch"

if [ "${1:-}" = "--check" ]; then
  cmp -s "$scratch" "$target" || { echo "encode-realtime-scenario: $target is out of date: run kiosk/tools/encode-realtime-scenario.sh" >&2; exit 1; }
  echo "encode-realtime-scenario: $target is up to date" >&2
  exit 0
fi
mv "$scratch" "$target"
trap - EXIT
echo "encode-realtime-scenario: wrote $target ($(wc -c <"$target") bytes)" >&2
