#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
# Warnings in the project's own Swift and C code are errors (Package.swift), so a warning fails here too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash kiosk/setup.sh
swift build --build-tests
# The web service's tests run on their own: their in-process server answers on Swift's cooperative threads (as
# many as cores, two here), which the rest of the suite's blocking subprocess tests would otherwise starve until
# the test client's fixed 20 s read timeout fires.
swift test --skip-build --skip WebServiceTests
swift test --skip-build --filter WebServiceTests
# A short fuzzing run of each reader of outside input (CSV, payloads, config, images): 15 s each.
bash kiosk/fuzz/run-fuzzers.sh 15
