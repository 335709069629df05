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

# KIOSK_FUZZ=1 (see Package.swift): built in the tests' own .build, reusing the dependencies compiled for them;
# only the project's own modules the fuzzer needs are compiled again, with libFuzzer's coverage and AddressSanitizer
# (the dependencies are not instrumented: their code is not what is fuzzed here). The next plain `swift build`
# compiles those modules back without the sanitizers.
KIOSK_FUZZ=1 swift build --product kiosk-fuzz >&2
fuzzer=$(swift build --show-bin-path)/kiosk-fuzz

# One fuzzer a core: each target still runs its SECONDS alone on a core.
cores=$(nproc)
fuzz_one() {
  local target=$1 work
  work=$(mktemp -d)
  echo "fuzz: $target for ${seconds}s" >&2
  if ! KIOSK_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 "$fuzzer" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
    "$work" "kiosk/fuzz/corpus/$target" 2>"$work.log"; then
    tail -40 "$work.log" >&2
    echo "fuzz: $target FAILED" >&2
    return 1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work.log" | sed "s/^/fuzz: $target /" >&2
  rm -rf "$work" "$work.log"
}

failed=0
running=()
for target in "${targets[@]}"; do
  fuzz_one "$target" &
  running+=($!)
  if ((${#running[@]} >= cores)); then
    wait "${running[0]}" || failed=1
    running=("${running[@]:1}")
  fi
done
for pid in "${running[@]}"; do wait "$pid" || failed=1; done
((failed == 0)) || exit 1
echo "fuzz: ${#targets[@]} targets, ${seconds}s each: no crash, leak or timeout" >&2
