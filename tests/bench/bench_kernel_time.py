#!/usr/bin/env python3
"""The workbench's kernel time against Nsight Compute's gpu__time_duration.sum, for every
sample that can be scaled up to kernels of 50 µs or more.

    python3 tests/bench/bench_kernel_time.py --bin build/bin [--ncu ncu] [--json OUT]

Each sample is copied with larger variables (SCALED), its checks left out (this times,
the gpu tests check) and its expression initialisers replaced by uniform random values
(evaluating an expression for 2^25 elements would take seconds; both sides run the same
copy). Then, one after the other:

  kwb-run run COPY --device cuda:0 --json --repeat 20
      the workbench's median kernel time and how it was taken (CUPTI's records, or
      events when CUPTI is missing: the row says which);
  ncu --clock-control none --cache-control all --metrics gpu__time_duration.sum --csv
      kwb-run run COPY --device cuda:0 --repeat 20   (KWB_CUPTI=0: Nsight Compute holds CUPTI;
      the copy's run.warmup is 0 there, so ncu profiles the first launch and the timed ones)
      the median over every profiled launch of the kernel but the first.

--clock-control none: Nsight Compute otherwise locks the SM clock to its base clock,
which the workbench does not do (it reports the clock instead); --cache-control all
flushes caches before each launch, as the workbench's automatic L2 flush does.

A row is met when |kwb / ncu - 1| <= 1 % and its kernel takes at least 50 µs; shorter
kernels are listed as information. A row that measured nothing fails. Exits 0 when every
row of 50 µs or more is met, 1 when one is missed, 2 when something could not run.
"""
import argparse
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples")
TOLERANCE = 0.01
FLOOR_MS = 0.050
REPEATS = 20

# sample -> its variables scaled up (about 50 µs to a few ms on an H100 or H200).
SCALED = {
    "add_vectors": {"n": "1 << 25"},
    "saxpy": {"n": "1 << 25"},
    "template_scale": {"n": "1 << 26"},
    "reduction_shared": {"n": "1 << 25"},
    "reduction_shuffle": {"n": "1 << 25"},
    "mandelbrot": {"w": "2048", "h": "2048", "max_iter": "256"},
    "matmul": {"M": "1024", "N": "1024", "K": "1024"},
    "histogram": {"w": "4096", "h": "4096", "grid": "1024"},
    "gaussian_kernel": {"m": "4096", "n": "4096", "grid": "1024", "block": "256"},
}
# Samples that cannot be scaled to 50 µs, and why (listed, not timed).
NOT_SCALED = {
    "multiply_them": "one block of n threads: n is at most 1024",
    "add_vectors_small": "three elements by design",
    "to_device_roundtrip": "four elements by design",
    "hello_from_gpu": "printf output, no timed repeats",
    "bfs_grid": "a document of steps: one run per step, no repeats",
    "heat_diffusion": "a document of steps: one run per step, no repeats",
    "reduction_two_pass": "a document of steps: one run per step, no repeats",
    "scan_blelloch": "a document of steps: one run per step, no repeats",
    "stream_compaction": "a document of steps: one run per step, no repeats",
}
UNITS_MS = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3, "ns": 1e-6, "us": 1e-3, "ms": 1.0,
            "s": 1e3}


def scaled_copy(name, folder):
    with open(os.path.join(SAMPLES, name + ".kwb")) as f:
        doc = json.load(f)
    wanted = SCALED[name]
    doc["variables"] = [[v, wanted.get(v, e)] for v, e in doc["variables"]]
    missing = set(wanted) - {v for v, _ in doc["variables"]}
    if missing:
        raise RuntimeError(f"{name}: the sample has no variable {sorted(missing)}")
    doc.pop("checks", None)
    for b in doc.get("buffers", []):
        if b.get("init", {}).get("kind") == "expression":
            b["init"] = {"kind": "uniform", "low": 0, "high": 200, "seed": 1}
    doc["run"] = dict(doc.get("run", {}), repeats=REPEATS)
    if "source_file" in doc:
        shutil.copy(os.path.join(SAMPLES, doc["source_file"]), folder)
    path = os.path.join(folder, name + ".kwb")
    with open(path, "w") as f:
        json.dump(doc, f)
    # Under ncu every launch is profiled: no warm-up there (ncu serialises and flushes
    # each launch itself), so it profiles the first launch and the timed ones only.
    doc["run"]["warmup"] = 0
    with open(os.path.join(folder, name + ".ncu.kwb"), "w") as f:
        json.dump(doc, f)
    return path


def kwb_time(kwb_run, path):
    p = subprocess.run([kwb_run, "run", path, "--device", "cuda:0", "--json", "--trust", "--repeat", str(REPEATS)],
                       capture_output=True, text=True, timeout=180)
    try:
        r = json.loads(p.stdout)
    except ValueError:
        raise RuntimeError(f"kwb-run gave no JSON ({p.returncode}): {p.stderr.strip()[-400:]}")
    t = r.get("timings", {})
    if r.get("fault") or len(t.get("kernel_ms", [])) != REPEATS or not t.get("median_ms", 0) > 0:
        raise RuntimeError(f"kwb-run measured nothing: fault {r.get('fault')}, {len(t.get('kernel_ms', []))} times")
    return t


def ncu_times(ncu, kwb_run, path):
    path = path[:-len(".kwb")] + ".ncu.kwb"
    env = dict(os.environ, KWB_CUPTI="0")
    # application-only: the sandboxed compile worker (a child) is left alone; its program
    # is in the cache from the plain run before anyway.
    cmd = [ncu, "--target-processes", "application-only", "--clock-control", "none", "--cache-control", "all",
           "--metrics", "gpu__time_duration.sum", "--print-units", "base", "--csv", kwb_run, "run", path, "--device", "cuda:0", "--trust", "--repeat", str(REPEATS)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    rows = [line for line in p.stdout.splitlines() if line.startswith('"')]
    ms = []
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        if row.get("Metric Name") == "gpu__time_duration.sum" and not row.get("Kernel Name", "").startswith("kwb_l2_read"):
            ms.append(float(row["Metric Value"].replace(",", "")) * UNITS_MS[row["Metric Unit"]])
    if len(ms) < 2:
        raise RuntimeError(f"ncu measured {len(ms)} launches ({p.returncode}): {p.stderr.strip()[-400:]}")
    return ms[1:]  # the first launch also loads the module and fills the TLBs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--ncu", default=shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
    ap.add_argument("--only", nargs="*", help="these samples only")
    ap.add_argument("--json", help="also write every figure here")
    args = ap.parse_args()
    kwb_run = os.path.join(args.bin, "kwb-run")

    rows, failed, missed = [], False, False
    with tempfile.TemporaryDirectory() as folder:
        for name in SCALED:
            if args.only and name not in args.only:
                continue
            try:
                path = scaled_copy(name, folder)
                t = kwb_time(kwb_run, path)
                n = ncu_times(args.ncu, kwb_run, path)
            except Exception as e:  # a row that measured nothing fails, with the reason
                rows.append({"sample": name, "error": str(e)})
                failed = True
                print(f"{name:18} FAILED: {e}")
                continue
            ncu_ms = statistics.median(n)
            ratio = t["median_ms"] / ncu_ms
            timed = ncu_ms >= FLOOR_MS
            met = abs(ratio - 1) <= TOLERANCE if timed else None
            missed |= met is False
            rows.append({"sample": name, "variables": SCALED[name], "kwb_median_ms": t["median_ms"],
                         "kwb_method": t.get("method"), "kwb_ci_ms": t.get("median_ci_ms"),
                         "kwb_l2_flushed": t.get("l2_flushed"), "kwb_sm_clock_mhz": t.get("sm_clock_mhz"),
                         "kwb_warmup_runs": t.get("warmup_runs"), "ncu_median_ms": ncu_ms, "ncu_ms": n,
                         "ratio": ratio, "met": met})
            clock = t.get("sm_clock_mhz", {})
            verdict = "met" if met else "MISSED" if met is False else "information (under 50 us)"
            print(f"{name:18} kwb {t['median_ms'] * 1e3:9.2f} us ({t.get('method')}, L2 "
                  f"{'flushed' if t.get('l2_flushed') else 'not flushed'}, SM {clock.get('before')}->"
                  f"{clock.get('after')} of {clock.get('max')} MHz)  ncu {ncu_ms * 1e3:9.2f} us  "
                  f"ratio {ratio:.4f}  {verdict}")
    for name, why in NOT_SCALED.items():
        print(f"{name:18} not timed: {why}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "not_scaled": NOT_SCALED}, f, indent=1)
    return 2 if failed else 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
