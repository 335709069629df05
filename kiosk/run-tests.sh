#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
# Warnings in the project's own Swift and C code are errors (Package.swift), so a warning fails here too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash kiosk/setup.sh
# The dependencies at the versions Package.resolved names (a fresh clone spent ~30 s computing them again).
swift build --build-tests --force-resolved-versions
# Every test target in a test process of its own, several at once (see the script: one process ran about two tests
# at a time, each waiting on a child process, a browser or a timeout, and left the cores idle).
python3 kiosk/tests/run_test_processes.py "$(swift build --show-bin-path)/StopKioskPackageTests.xctest"
# A short fuzzing run of each reader of outside input (CSV, payloads, config, images, realtime): 15 s each.
bash kiosk/fuzz/run-fuzzers.sh 15
