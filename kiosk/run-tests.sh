#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
# Warnings in the project's own Swift and C code are errors (Package.swift), so a warning fails here too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash kiosk/setup.sh
swift build --build-tests
swift test
# A short fuzzing run of each reader of outside input (CSV, payloads, config, images): 15 s each.
bash kiosk/fuzz/run-fuzzers.sh 15
