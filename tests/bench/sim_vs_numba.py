#!/usr/bin/env python3
"""add_vectors on Numba's CUDA simulator and on Kernel Workbench's `sim` backend, in one run.

Prints threads per second for both and the ratio, then the sim figures for tiled
matmul 256x256 and mandelbrot 512x512. Both sides launch once untimed before the
timed launch, and both check their whole output.

    python3 tests/bench/sim_vs_numba.py [--bench-sim build/bin/bench_sim] [--numba-n 16384]

Numba's simulator runs one Python thread per CUDA thread, so it gets a smaller n
(threads per second is the comparable figure). Needs numba and numpy (Debian:
python3-numba); when the current interpreter lacks them the script re-runs itself
with /usr/bin/python3.
"""
import argparse
import os
import re
import subprocess
import sys
import time

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

try:
    import numpy as np
    from numba import cuda
except ImportError:
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("sim_vs_numba: numba and numpy are required (Debian: apt install python3-numba)")


@cuda.jit
def add_vectors(a, b, c, n):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < n:
        c[i] = a[i] + b[i]


def numba_threads_per_second(n, block=256):
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    grid = (n + block - 1) // block
    # Warm-up: the first launch also sets up the simulator and the kernel's dispatcher;
    # bench_sim warms its side up the same way.
    add_vectors[grid, block](a, b, c, n)
    if not np.array_equal(c, a + b):
        sys.exit("sim_vs_numba: Numba's simulator computed a wrong result")
    c[:] = 0
    start = time.perf_counter()
    add_vectors[grid, block](a, b, c, n)
    seconds = time.perf_counter() - start
    if not np.array_equal(c, a + b):
        sys.exit("sim_vs_numba: Numba's simulator computed a wrong result")
    return n / seconds, seconds


def run_bench_sim(path):
    out = subprocess.run([path, "all"], check=False, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"sim_vs_numba: {path} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    results = {}
    for line in out.stdout.splitlines():
        m = re.match(r"sim (\S+) threads=(\S+) wall_s=(\S+) threads_per_s=(\S+) check=(\S+)", line)
        if m:
            results[m.group(1)] = dict(threads=float(m.group(2)), seconds=float(m.group(3)),
                                       rate=float(m.group(4)), check=m.group(5))
    return results


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_bench = os.path.join(here, "..", "..", "build", "bin", "bench_sim")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench-sim", default=default_bench, help="path of the bench_sim executable")
    ap.add_argument("--numba-n", type=int, default=1 << 14, help="vector length for Numba's simulator")
    args = ap.parse_args()

    numba_rate, numba_s = numba_threads_per_second(args.numba_n)
    sim = run_bench_sim(args.bench_sim)
    add = sim["add_vectors"]
    print(f"add_vectors  numba-cudasim  n={args.numba_n:>8}  {numba_s:8.3f} s  {numba_rate:12.4g} threads/s")
    print(f"add_vectors  kwb sim        n={int(add['threads']):>8}  {add['seconds']:8.3f} s  "
          f"{add['rate']:12.4g} threads/s  check={add['check']}")
    ratio = add["rate"] / numba_rate
    print(f"ratio sim/numba: {ratio:.0f}x  (target >= 1000x; sim wall time target < 1 s)")
    for name, label in (("matmul_256", "tiled matmul 256x256"), ("mandelbrot_512", "mandelbrot 512x512")):
        r = sim[name]
        print(f"{label:<22} kwb sim  {r['seconds']:8.3f} s  check={r['check']}  (target < 5 s)")
    ok = (ratio >= 1000 and add["seconds"] < 1 and sim["matmul_256"]["seconds"] < 5
          and sim["mandelbrot_512"]["seconds"] < 5 and all(r["check"] == "ok" for r in sim.values()))
    print("targets:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
