#!/usr/bin/env python3
"""1 GiB uploads and downloads: Kernel Workbench's staging ring against CuPy's pinned
cudaMemcpy, each in five fresh processes, alternating, both timed by CUDA events around
the copies (median of 5 rounds after one untimed round in each process).

    python3 tests/bench/bench_transfer.py --bin build/bin [--processes 5] [--json OUT]
    python3 tests/bench/bench_transfer.py --bin build/bin --rings      # try other rings

Prints, for upload and download, each process pair's ratio kwb / CuPy, their median and
spread, and `met` when every pair reaches 0.95. Exits 0 when both are met, 1 when one is
missed, 2 when something could not run (a process that failed or measured nothing).
With --rings it times the ring shapes listed in RINGS (KWB_STAGING_SLOT_MIB,
KWB_STAGING_SLOTS, KWB_STAGING_THREADS), each beside the driver's pinned copy in the
same process, to choose one.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

TARGET = 0.95
RINGS = [(16, 4, 0), (8, 8, 0), (32, 4, 0), (64, 3, 0), (16, 4, 12), (32, 4, 12)]

CUPY_CHILD = r"""
import json, sys
import numpy as np
import cupy as cp
n, rounds = int(sys.argv[1]), int(sys.argv[2])
dev = cp.empty(n, cp.uint8)
mem = cp.cuda.alloc_pinned_memory(n)
pinned = np.frombuffer(mem, np.uint8, n)
pinned.view(np.uint32)[...] = np.arange(n // 4, dtype=np.uint32)
H2D, D2H = cp.cuda.runtime.memcpyHostToDevice, cp.cuda.runtime.memcpyDeviceToHost
def series(kind):
    ms = []
    for r in range(rounds + 1):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        if kind == H2D:
            cp.cuda.runtime.memcpy(dev.data.ptr, pinned.ctypes.data, n, kind)
        else:
            cp.cuda.runtime.memcpy(pinned.ctypes.data, dev.data.ptr, n, kind)
        stop.record()
        stop.synchronize()
        if r > 0:
            ms.append(cp.cuda.get_elapsed_time(start, stop))
    return ms
up = series(H2D)
assert bool((dev[-4096:].get() == pinned[-4096:]).all()), "CuPy upload: wrong data on the device"
down = series(D2H)
med = lambda v: sorted(v)[len(v) // 2]
print(json.dumps({"upload_gbps": n / (med(up) * 1e-3) / 1e9, "download_gbps": n / (med(down) * 1e-3) / 1e9,
                  "upload_ms": up, "download_ms": down}))
"""


def run_json(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:2])} failed ({p.returncode}): {p.stderr.strip()[-500:]}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    for key in ("upload_gbps", "download_gbps"):
        if not (out.get(key, 0) > 0):
            raise RuntimeError(f"{' '.join(cmd[:2])} measured nothing for {key}")
    return out


def kwb(bin_dir, mib, rounds, ring=None):
    env = dict(os.environ)
    if ring:
        slot, slots, threads = ring
        env.update(KWB_STAGING_SLOT_MIB=str(slot), KWB_STAGING_SLOTS=str(slots))
        if threads:
            env["KWB_STAGING_THREADS"] = str(threads)
    return run_json([os.path.join(bin_dir, "bench_transfer"), "--mib", str(mib), "--rounds", str(rounds)], env)


def cupy(mib, rounds):
    return run_json([sys.executable, "-c", CUPY_CHILD, str(mib << 20), str(rounds)])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--processes", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--rings", action="store_true", help="time the ring shapes in RINGS instead")
    ap.add_argument("--json", help="also write every figure here")
    args = ap.parse_args()

    try:
        if args.rings:
            print("slot MiB  slots  threads  upload GB/s  download GB/s  (pinned cuMemcpy in process: up / down)")
            results = []
            for ring in RINGS:
                k = kwb(args.bin, args.mib, args.rounds, ring)
                results.append({"ring": ring, "kwb": k})
                print(f"{ring[0]:8}  {ring[1]:5}  {ring[2] or 'auto':>7}  {k['upload_gbps']:11.2f}  "
                      f"{k['download_gbps']:13.2f}  ({k['pinned_upload_gbps']:.2f} / {k['pinned_download_gbps']:.2f};"
                      f" ratios {k['upload_gbps'] / k['pinned_upload_gbps']:.3f} / "
                      f"{k['download_gbps'] / k['pinned_download_gbps']:.3f})")
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(results, f, indent=1)
            return 0
        pairs = []
        for _ in range(args.processes):  # alternating: a drift of the machine weighs on both
            pairs.append((kwb(args.bin, args.mib, args.rounds), cupy(args.mib, args.rounds)))
    except Exception as e:
        print(f"bench_transfer: cannot run: {e}", file=sys.stderr)
        return 2

    ok = True
    summary = {}
    for what in ("upload", "download"):
        key = what + "_gbps"
        ratios = [k[key] / c[key] for k, c in pairs]
        met = min(ratios) >= TARGET
        ok &= met
        summary[what] = {"kwb_gbps": [k[key] for k, _ in pairs], "cupy_pinned_gbps": [c[key] for _, c in pairs],
                         "ratios": ratios, "median_ratio": statistics.median(ratios),
                         "spread": [min(ratios), max(ratios)], "met": met}
        print(f"1 GiB {what:8}  kwb {statistics.median(summary[what]['kwb_gbps']):6.2f} GB/s  "
              f"CuPy pinned {statistics.median(summary[what]['cupy_pinned_gbps']):6.2f} GB/s  "
              f"ratio median {summary[what]['median_ratio']:.3f}, spread {min(ratios):.3f} to {max(ratios):.3f} "
              f"over {len(ratios)} process pairs  target >= {TARGET} in every pair: {'met' if met else 'MISSED'}")
    k0 = pairs[0][0]
    print(f"(in process, first kwb process: driver pinned {k0['pinned_upload_gbps']:.2f} / "
          f"{k0['pinned_download_gbps']:.2f} GB/s; register + copy + unregister "
          f"{k0.get('registered_upload_gbps', 0):.2f} / {k0.get('registered_download_gbps', 0):.2f} GB/s; ring "
          f"{k0['ring']})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "pairs": pairs}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
