#!/usr/bin/env python3
"""Sums up the GoogleTest output of the Windows test executables run under Wine.

Each argument is the captured output of one executable. A failed test counts as
"needs NVRTC" when its output says NVRTC could not be loaded (the cross build has
no Windows NVRTC); any other failure, or an executable whose output ends before
GoogleTest's summary (a crash, or a hang that build.sh's timeout ended: its
"[kwb] exit status 124" line), fails the run; the last lines of such an output are
shown. Exit status 1 in that case.
"""
import re
import sys

NVRTC_MISSING = "NVRTC could not be loaded"
EXIT = re.compile(r"^\[kwb\] exit status (\d+)$")
RESULT = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+)(?:, where .*)? \(\d+ ms\)$")

passed, skipped, needs_nvrtc, failed, crashed = [], [], [], [], []
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    if not any(l.startswith("[==========]") and "ran." in l for l in lines):
        status = next((int(m.group(1)) for m in map(EXIT.match, reversed(lines)) if m), None)
        how = "timed out" if status == 124 else f"exit status {status}" if status is not None else ""
        tail = [l for l in lines if not EXIT.match(l)][-3:]
        crashed.append((path, how, tail))
    segment = []
    for line in lines:
        if line.startswith("[ RUN      ]"):
            segment = []
            continue
        m = RESULT.match(line.rstrip("\r"))
        if not m:
            segment.append(line)
            continue
        state, name = m.groups()
        text = "\n".join(segment)
        if state == "OK":
            passed.append(name)
        elif state == "SKIPPED":
            at = next((i for i, l in enumerate(segment) if l.endswith("Skipped")), None)
            why = segment[at + 1].strip() if at is not None and at + 1 < len(segment) else ""
            skipped.append((name, why))
        elif NVRTC_MISSING in text:
            needs_nvrtc.append(name)
        else:
            failed.append((name, segment))
        segment = []

print(f"wine tests: {len(passed)} passed, {len(skipped)} skipped, "
      f"{len(needs_nvrtc)} failed for want of NVRTC (none in the cross build), "
      f"{len(failed)} failed otherwise, {len(crashed)} executables crashed")
for name, why in skipped:
    print(f"  skipped      {name}: {why}")
for name in needs_nvrtc:
    print(f"  needs NVRTC  {name}")
for name, segment in failed:
    print(f"  FAILED       {name}")
    for line in segment[:12]:
        print(f"      {line}")
for path, how, tail in crashed:
    print(f"  CRASHED      {path}" + (f" ({how})" if how else ""))
    for line in tail:
        print(f"      {line}")
sys.exit(1 if failed or crashed else 0)
