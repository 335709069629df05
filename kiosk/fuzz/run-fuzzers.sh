#!/usr/bin/env bash
# Fuzzes the readers of outside input with libFuzzer (and AddressSanitizer): the CSV reader, the stop-code
# payload parser, the TOML config, the image loader, and GTFS-Realtime feeds (as bytes, and as valid messages
# built from the input with extreme values) through decoding, matching and the stop views' renderings. Usage: kiosk/fuzz/run-fuzzers.sh SECONDS [TARGET…]
# Each target runs SECONDS seconds from the seed corpus in kiosk/fuzz/corpus/TARGET; what the fuzzer learns goes
# to a scratch folder. A crash, leak, timeout (10 s on one input) or 2 GB of memory fails the run and leaves the
# input in $KIOSK_FUZZ_ARTIFACTS (default /tmp/kiosk-fuzz-artifacts) to replay with `kiosk-fuzz TARGET FILE`.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:?usage: run-fuzzers.sh SECONDS [csv payload config image realtime realtime-structured]}
shift
targets=("$@")
((${#targets[@]})) || targets=(csv payload config image realtime realtime-structured)
artifacts=${KIOSK_FUZZ_ARTIFACTS:-/tmp/kiosk-fuzz-artifacts}
mkdir -p "$artifacts"

swift build --build-path .build-fuzz --product kiosk-fuzz --sanitize=fuzzer --sanitize=address -Xswiftc -DFUZZING >&2
fuzzer=.build-fuzz/debug/kiosk-fuzz

for target in "${targets[@]}"; do
  work=$(mktemp -d)
  echo "fuzz: $target for ${seconds}s" >&2
  KIOSK_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/kiosk/fuzz/lsan-suppressions.txt "$fuzzer" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
    "$work" "kiosk/fuzz/corpus/$target" 2>"$work.log" || { tail -40 "$work.log" >&2; echo "fuzz: $target FAILED" >&2; exit 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work.log" | sed "s/^/fuzz: $target /" >&2
  rm -rf "$work" "$work.log"
done
echo "fuzz: ${#targets[@]} targets, ${seconds}s each: no crash, leak or timeout" >&2
