#!/usr/bin/env python3
"""Runs the built Swift tests in several test processes at once, for the test command.

Usage: run_test_processes.py TEST_BINARY [--jobs N] [--logs FOLDER]

One test process runs its tests as tasks on Swift's cooperative threads, as many as cores (two here). Most of our
tests wait on something outside the process (a `kiosk` child, tmux, a browser, a feed server's timeout) and block
one of those threads while they wait, so a single process ran about two tests at a time and left the cores idle
for much of its 12 minutes. Here every test target runs in a process of its own (the largest split by suites),
JOBS processes at a time (default: cores + 1), the longest first. A process holds one target's suites only, so the
web service's tests never share one with the blocking tests of other targets (their in-process server answers on
the same cooperative threads).

Every listed test is run by exactly one process (checked before starting: a test no process would run fails the
command). Each process's output goes to LOGS/NAME.log; a failing process's issues are printed in full. Exit 0 when
every process passed, 1 when one failed, 2 for a broken partition or usage.
"""
import argparse
import os
import re
import subprocess
import sys
import time
from collections import defaultdict

# Targets split into several processes by suites.
SPLIT = {
    "TransitStoreTests": 4,
    "WebServiceTests": 3,
    "TerminalKioskTests": 2,
    "RealtimeTests": 2,
    "JourneyPlannerTests": 2,
}
# Seconds a suite took on its own (2 cores, debug build, 2026-11-28, beside other work), for the suites far slower
# than their number of tests says; any other suite counts a second a test. They only balance the split and decide
# which process starts first: the longest, so that the last to finish is not one started late.
SUITE_SECONDS = {
    "PhonePagesBrowserTests": 280,
    "KioskBoardBrowserTests": 270,
    "KioskLiveTests": 160,
    "KioskEndToEndTests": 110,
    "DeploymentTests": 120,
    "StopSearchIndexTests": 120,
    "ShapeImportTests": 90,
    "StopSearchPlanTests": 60,
    "TimetableCommandTests": 60,
    "OracleComparisonTests": 60,
}
# The first character of each line Swift Testing prints about a test: started, passed, failed, skipped, a warning.
# (Its "↳" lines are details of the line before them.)
SYMBOLS = ("◇", "✔", "✘", "➜", "⚠")


def fail(message):
    print(f"tests: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def list_tests(binary):
    listed = subprocess.run(
        [binary, "--testing-library", "swift-testing", "--list-tests"],
        capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    if listed.returncode != 0:
        fail(f"{binary} --list-tests failed ({listed.returncode}):\n{listed.stderr}")
    tests = [line.strip() for line in listed.stdout.splitlines() if line.strip()]
    if not tests:
        fail(f"{binary} lists no tests")
    return tests


def suite_of(test_id):
    """'Target.Suite/test()' → ('Target', 'Suite'); a test outside a suite is its own 'suite'."""
    path = test_id.split("/", 1)[0]
    target, _, suite = path.partition(".")
    return target, (suite.split(".", 1)[0] if suite else test_id.split("/", 1)[1])


def shards(tests):
    """(name, filter regex, test count, estimated seconds) for each process, the longest first."""
    by_target = defaultdict(lambda: defaultdict(int))
    for test in tests:
        target, suite = suite_of(test)
        by_target[target][suite] += 1
    result = []
    for target, suites in by_target.items():
        parts = min(SPLIT.get(target, 1), len(suites))
        groups = [[] for _ in range(parts)]
        seconds, counts = [0.0] * parts, [0] * parts
        # The longest suites first, each to the group with the least time so far.
        estimates = {suite: SUITE_SECONDS.get(suite, float(count)) for suite, count in suites.items()}
        for suite in sorted(suites, key=lambda suite: (-estimates[suite], suite)):
            lightest = seconds.index(min(seconds))
            groups[lightest].append(suite)
            seconds[lightest] += estimates[suite]
            counts[lightest] += suites[suite]
        for index, group in enumerate(groups):
            alternatives = "|".join(re.escape(suite) for suite in sorted(group))
            regex = rf"^{re.escape(target)}\.({alternatives})(/|\.|$)" if parts > 1 else rf"^{re.escape(target)}\."
            name = target if parts == 1 else f"{target}-{index + 1}of{parts}"
            result.append((name, regex, counts[index], seconds[index]))
    return sorted(result, key=lambda shard: -shard[3])


def check_partition(tests, plan):
    compiled = [(name, re.compile(regex)) for name, regex, _, _ in plan]
    for test in tests:
        owners = [name for name, regex in compiled if regex.search(test)]
        if len(owners) != 1:
            fail(f"{test} would be run by {len(owners)} processes ({', '.join(owners) or 'none'})")


def issues(log_path):
    """The lines that say what failed: each ✘ line and the lines of detail that follow it."""
    lines, keep = [], False
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            if line.startswith(SYMBOLS):
                keep = line.startswith("✘")
            if keep or "Fatal error" in line or "Crash" in line:
                lines.append(line.rstrip("\n"))
    return lines


def summary(log_path):
    with open(log_path, encoding="utf-8", errors="replace") as log:
        runs = [line.strip() for line in log if "Test run with" in line]
    return runs[-1] if runs else "no summary line (the process ended before its tests did)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--jobs", type=int, default=(os.cpu_count() or 2) + 1)
    parser.add_argument("--logs", default=".build/test-logs")
    options = parser.parse_args()

    tests = list_tests(options.binary)
    plan = shards(tests)
    check_partition(tests, plan)
    os.makedirs(options.logs, exist_ok=True)
    print(f"tests: {len(tests)} tests in {len(plan)} processes, {options.jobs} at a time; logs in {options.logs}/",
          flush=True)

    started = time.monotonic()
    pending, running, failed = list(plan), {}, []
    while pending or running:
        while pending and len(running) < options.jobs:
            name, regex, count, _ = pending.pop(0)
            log_path = os.path.join(options.logs, f"{name}.log")
            with open(log_path, "w") as log:
                try:
                    process = subprocess.Popen(
                        [options.binary, "--testing-library", "swift-testing", "--filter", regex], stdout=log,
                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"))
                except OSError as error:
                    print(f"tests: {name}: cannot start {options.binary}: {error}", flush=True)
                    failed.append(name)
                    continue
            running[process.pid] = (process, name, log_path, time.monotonic())
        if not running:
            break
        pid, status = os.wait()
        if pid not in running:
            continue
        process, name, log_path, began = running.pop(pid)
        code = os.waitstatus_to_exitcode(status)
        print(f"tests: {name}: {summary(log_path)} ({time.monotonic() - began:.0f} s, exit {code})", flush=True)
        if code != 0:
            failed.append(name)
            found = issues(log_path)
            if not found:  # a crash, or a failure outside any test: the end of the log says what
                with open(log_path, encoding="utf-8", errors="replace") as log:
                    found = [line.rstrip("\n") for line in log][-40:]
            print("\n".join(found), flush=True)

    elapsed = time.monotonic() - started
    if failed:
        print(f"tests: FAILED in {', '.join(failed)} ({elapsed:.0f} s); whole logs in {options.logs}/", flush=True)
        return 1
    print(f"tests: all {len(tests)} tests passed in {len(plan)} processes, {elapsed:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
