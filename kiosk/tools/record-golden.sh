#!/usr/bin/env bash
# Rewrites Tests/Fixtures/golden/*.out from a kiosk binary: run after a deliberate change of headless output,
# and review the diff. Usage: kiosk/tools/record-golden.sh [KIOSK_BINARY] [OUT_DIR]
# With another revision's binary and a scratch OUT_DIR, it also compares two builds:
#   kiosk/tools/record-golden.sh /tmp/old/kiosk /tmp/golden-old && diff -r /tmp/golden-old Tests/Fixtures/golden
set -euo pipefail
binary=$(realpath "${1:-$(dirname "$0")/../../.build/debug/kiosk}")
out=$(realpath -m "${2:-$(dirname "$0")/../../Tests/Fixtures/golden}")
cd "$(dirname "$0")/../.."
mkdir -p "$out"
cache=$(mktemp -d); trap 'rm -rf "$cache"' EXIT
grep -v '^#' Tests/Fixtures/golden/queries.txt | grep . | while IFS=: read -r name args; do
  # Arguments are split on spaces; '_' stands for a space inside one argument.
  read -r -a argv <<<"$args"
  argv=("${argv[@]//_/ }")
  status=0
  XDG_CACHE_HOME="$cache" "$binary" "${argv[@]}" >"$out/$name.out" 2>/dev/null </dev/null || status=$?
  echo "exit $status" >>"$out/$name.out"
done
echo "recorded $(ls "$out"/*.out | wc -l) outputs in $out"
