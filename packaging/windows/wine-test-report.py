#!/usr/bin/env python3
"""Sums up the GoogleTest XML reports of the Windows tests run under Wine.

A test counts as "needs NVRTC" when it failed only because NVRTC could not be
loaded (the cross build carries no Windows NVRTC); any other failure fails the run.
Usage: wine-test-report.py REPORT.xml... ; exit status 1 when a test failed otherwise.
"""
import sys
import xml.etree.ElementTree as ET

NVRTC_MISSING = "NVRTC could not be loaded"

passed, skipped, needs_nvrtc, failed = [], [], [], []
for path in sys.argv[1:]:
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname')}.{case.get('name')}"
        failures = [f.get("message", "") + (f.text or "") for f in case.findall("failure")]
        if failures:
            (needs_nvrtc if all(NVRTC_MISSING in f for f in failures) else failed).append((name, failures))
        elif case.get("result") == "skipped" or case.find("skipped") is not None:
            why = case.find("skipped")
            skipped.append((name, (why.get("message", "") if why is not None else "").strip()))
        else:
            passed.append(name)

print(f"wine tests: {len(passed)} passed, {len(skipped)} skipped, "
      f"{len(needs_nvrtc)} need NVRTC (not in the cross build), {len(failed)} failed")
for name, why in skipped:
    print(f"  skipped      {name}: {why.splitlines()[0] if why else ''}")
for name, _ in needs_nvrtc:
    print(f"  needs NVRTC  {name}")
for name, failures in failed:
    print(f"  FAILED       {name}")
    for f in failures:
        for line in f.strip().splitlines()[:6]:
            print(f"      {line}")
sys.exit(1 if failed else 0)
