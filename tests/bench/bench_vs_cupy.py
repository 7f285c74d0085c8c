#!/usr/bin/env python3
"""Kernel Workbench vs CuPy RawKernel, side by side in one run (on the GPU machine).

    python3 tests/bench/bench_vs_cupy.py --bin build/bin [--quick] [--json OUT.json]

Runs, in this order and in one process tree:
  1. build/bin/kwb-bench (the engine in process: compile, cache hit, empty launch,
     add_vectors kernel time at 2^26, 1 GiB upload through pinned staging),
  2. `kwb-run serve` (edit-and-rerun of add_vectors at n = 2^20 over the protocol:
     new source, compile, upload, launch, download of c as a binary frame),
  3. the same cases through CuPy RawKernel,
and prints one table with the ratios and the targets of issue 2 ("Performance").
Exit status 0 when every target is met, 1 otherwise, 2 when something could not run.

Needs numpy and CuPy for the installed CUDA (pip install cupy-cuda13x, or cupy-cuda12x).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ADD_SOURCE = """// edit {edit}
__global__ void add_vectors(const float* a, const float* b, float* c, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}}
"""


def fresh_source(edit):
    # A new source for every compiler and cache: the edit counter plus the clock.
    return ADD_SOURCE.format(edit=f"{edit} {time.time_ns()}")


def add_document(source, n_expr, repeats):
    return {
        "format": "kernel-workbench", "version": 1,
        "source": source, "kernel": "add_vectors",
        "variables": [["n", n_expr]],
        "buffers": [
            {"name": "a", "dtype": "f32", "count": "n", "init": {"kind": "uniform", "seed": 1}, "direction": "in"},
            {"name": "b", "dtype": "f32", "count": "n", "init": {"kind": "uniform", "seed": 2}, "direction": "in"},
            {"name": "c", "dtype": "f32", "count": "n", "init": {"kind": "zeros"}, "direction": "out"},
        ],
        "args": [{"name": "a", "buffer": "a"}, {"name": "b", "buffer": "b"}, {"name": "c", "buffer": "c"},
                 {"name": "n", "type": "i32", "value": "n"}],
        "launch": {"grid": ["cdiv(n, 256)", 1, 1], "block": [256, 1, 1]},
        "run": {"warmup": 3 if repeats else 0, "repeats": repeats},
    }


class Serve:
    """A `kwb-run serve` child speaking docs/protocol.md."""

    def __init__(self, kwb_run):
        self.proc = subprocess.Popen([kwb_run, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def request(self, op, **members):
        rid = self.next_id
        self.next_id += 1
        msg = {"v": 4, "id": rid, "op": op, **members}
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()
        buffers = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("kwb-run serve ended without a reply")
            reply = json.loads(line)
            if "binary" in reply:
                data = self.proc.stdout.read(reply["binary"])
                buffers[reply.get("name")] = data
            if reply.get("id") == rid and "event" not in reply:
                if not reply.get("ok"):
                    raise RuntimeError(f"{op} failed: {reply.get('error')}")
                return reply["result"], buffers

    def close(self):
        try:
            self.request("shutdown")
        finally:
            self.proc.wait(timeout=30)


def require(condition, what):
    # Not `assert`: python -O must not turn a failed run into a timed one.
    if not condition:
        raise RuntimeError(what)


def median(values):
    return statistics.median(values)


def bench_kwb_in_process(bin_dir, quick):
    out = subprocess.run([os.path.join(bin_dir, "kwb-bench")] + (["--quick"] if quick else []),
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def bench_kwb_serve(bin_dir, quick):
    serve = Serve(os.path.join(bin_dir, "kwb-run"))
    res = {}
    try:
        serve.request("hello")
        import numpy as np

        # Warm: context, NVRTC and the staging ring. This run also returns the inputs,
        # which every later run regenerates from the same seeds: c must be a + b.
        result, buffers = serve.request("run", document=add_document(fresh_source(-1), "1 << 20", 0), base_dir="",
                                        device="cuda:0", return_buffers="all")
        a = np.frombuffer(buffers["a"], np.float32)
        b = np.frombuffer(buffers["b"], np.float32)
        expected = (a + b).tobytes()
        require(result["ok"] and len(a) == 1 << 20 and buffers["c"] == expected, "warm-up run: c != a + b")
        times = []
        for i in range(5 if quick else 20):
            doc = add_document(fresh_source(i), "1 << 20", 0)
            t0 = time.perf_counter()
            result, buffers = serve.request("run", document=doc, base_dir="", device="cuda:0",
                                            return_buffers="outputs")
            times.append((time.perf_counter() - t0) * 1e3)
            require(result["ok"] and buffers.get("c") == expected, f"edit+rerun {i}: c != a + b ({result})")
        res["edit_rerun_ms"] = median(times)
        doc = add_document(fresh_source(-2), "1 << 20", 0)
        serve.request("compile", document=doc, base_dir="", device="cuda:0")
        hits = []
        for _ in range(5):
            # Wall time of the whole request, as CuPy's side is measured.
            t0 = time.perf_counter()
            result, _ = serve.request("compile", document=doc, base_dir="", device="cuda:0")
            hits.append((time.perf_counter() - t0) * 1e3)
            require(result["ok"] and result["cache_hit"] and ".entry" in result.get("ptx", ""),
                    f"compile of a seen source was not a cache hit: {result}")
        res["cache_hit_compile_ms"] = median(hits)
    finally:
        serve.close()
    return res


def bench_cupy(quick):
    import numpy as np
    import cupy as cp

    res = {}
    n = 1 << 20
    rng = np.random.default_rng(1)
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)

    def c_linkage(src):
        # RawKernel looks kernels up by their unmangled name, as CuPy users write them.
        return src.replace("__global__ void add_vectors", 'extern "C" __global__ void add_vectors')

    def kernel_of(src):
        k = cp.RawKernel(c_linkage(src), "add_vectors")
        if hasattr(k, "compile"):
            k.compile()
        else:
            _ = k.kernel
        return k

    # Warm CuPy itself (module import, context, NVRTC load) before timing.
    kernel_of(fresh_source(-1))((4096,), (256,), (cp.asarray(a), cp.asarray(b), cp.empty(n, cp.float32), np.int32(n)))
    cp.cuda.Device().synchronize()

    # Edit and re-run: new source, compile, upload, launch, download.
    times = []
    for i in range(5 if quick else 20):
        src = fresh_source(i)
        t0 = time.perf_counter()
        k = cp.RawKernel(c_linkage(src), "add_vectors")
        a_d = cp.asarray(a)
        b_d = cp.asarray(b)
        c_d = cp.empty(n, cp.float32)
        k(((n + 255) // 256,), (256,), (a_d, b_d, c_d, np.int32(n)))
        c = cp.asnumpy(c_d)
        times.append((time.perf_counter() - t0) * 1e3)
        require(np.array_equal(c, a + b), f"CuPy edit+rerun {i}: c != a + b")
    res["edit_rerun_ms"] = median(times)

    # Compile of a source CuPy has seen (its memory/disk cache).
    src = fresh_source(-2)
    kernel_of(src)
    hits = []
    for _ in range(5):
        t0 = time.perf_counter()
        kernel_of(src)
        hits.append((time.perf_counter() - t0) * 1e3)
    res["cache_hit_compile_ms"] = median(hits)

    # Empty launch.
    empty = cp.RawKernel("extern \"C\" __global__ void empty() {}", "empty")
    for _ in range(100):
        empty((1,), (1,), ())
    cp.cuda.Device().synchronize()
    launches = 2000 if quick else 20000
    t0 = time.perf_counter()
    for _ in range(launches):
        empty((1,), (1,), ())
    cp.cuda.Device().synchronize()
    res["empty_launch_us"] = (time.perf_counter() - t0) * 1e6 / launches

    # add_vectors kernel time at 2^26 with CUDA events (median of 20, after 3 warm-ups).
    big = 1 << 26
    k = kernel_of(fresh_source(-3))
    a_d = cp.random.random(big, dtype=cp.float32)
    b_d = cp.random.random(big, dtype=cp.float32)
    c_d = cp.empty(big, cp.float32)
    grid = ((big + 255) // 256,)
    for _ in range(3):
        k(grid, (256,), (a_d, b_d, c_d, np.int32(big)))
    ms = []
    require(cp.array_equal(c_d, a_d + b_d), "CuPy add_vectors 2^26: c != a + b")
    for _ in range(20):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        k(grid, (256,), (a_d, b_d, c_d, np.int32(big)))
        stop.record()
        stop.synchronize()
        ms.append(cp.cuda.get_elapsed_time(start, stop))
    res["add_2p26_kernel_median_ms"] = median(ms)
    del a_d, b_d, c_d

    # 1 GiB upload: from pinned memory, and from pageable memory.
    count = 1 << 28
    host = np.full(count, 7, dtype=np.uint32)
    dev = cp.empty(count, cp.uint32)
    pinned_mem = cp.cuda.alloc_pinned_memory(host.nbytes)
    pinned = np.frombuffer(pinned_mem, np.uint32, count)
    pinned[...] = host
    best_pinned, best_pageable = 1e30, 1e30
    for _ in range(3):
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        dev.set(pinned)
        cp.cuda.Device().synchronize()
        best_pinned = min(best_pinned, time.perf_counter() - t0)
        t0 = time.perf_counter()
        dev.set(host)
        cp.cuda.Device().synchronize()
        best_pageable = min(best_pageable, time.perf_counter() - t0)
    require(bool((dev == 7).all()), "CuPy 1 GiB upload: wrong data on the device")
    res["upload_1gib_pinned_gbps"] = host.nbytes / best_pinned / 1e9
    res["upload_1gib_pageable_gbps"] = host.nbytes / best_pageable / 1e9
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin", help="folder with kwb-run and kwb-bench")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--json", help="also write all numbers to this file")
    args = ap.parse_args()

    try:
        kin = bench_kwb_in_process(args.bin, args.quick)
        # Two alternating rounds, so a drift of the machine's clocks during the
        # run weighs on both sides alike; each figure is the mean of its rounds.
        rounds = []
        for _ in range(2):
            rounds.append((bench_kwb_serve(args.bin, args.quick), bench_cupy(args.quick)))
        kserve = {k: statistics.mean(r[0][k] for r in rounds) for k in rounds[0][0]}
        cupy = {k: statistics.mean(r[1][k] for r in rounds) for k in rounds[0][1]}
        kserve["rounds"] = [r[0] for r in rounds]
        cupy["rounds"] = [r[1] for r in rounds]
    except Exception as e:  # report what could not run, with the reason
        print(f"bench_vs_cupy: cannot run: {e}", file=sys.stderr)
        return 2

    rows = []  # (case, kwb, cupy, ratio, target text, met)

    def row(case, kwb, other, unit, target, met):
        ratio = kwb / other if other else float("nan")
        rows.append((case, f"{kwb:.3f} {unit}", f"{other:.3f} {unit}" if other is not None else "-",
                     f"{ratio:.3f}" if other is not None else "-", target, met))

    r = kserve["edit_rerun_ms"] / cupy["edit_rerun_ms"]
    row("edit+rerun add_vectors 2^20 (serve)", kserve["edit_rerun_ms"], cupy["edit_rerun_ms"], "ms",
        "kwb/CuPy <= 0.8", r <= 0.8)
    row("edit+rerun add_vectors 2^20 (in process)", kin["edit_rerun_in_process_ms"], cupy["edit_rerun_ms"], "ms",
        "(information)", None)
    row("compile, new source, warm process", kin["compile_new_source_ms"], None, "ms", "(information)", None)
    row("compile, cache hit (serve, wall time of the request)", kserve["cache_hit_compile_ms"], cupy["cache_hit_compile_ms"], "ms",
        "kwb <= 1 ms", kserve["cache_hit_compile_ms"] <= 1.0)
    row("compile, cache hit (in process)", kin["compile_cache_hit_ms"], cupy["cache_hit_compile_ms"], "ms",
        "kwb <= 1 ms", kin["compile_cache_hit_ms"] <= 1.0)
    row("empty launch", kin["empty_launch_us"], cupy["empty_launch_us"], "us", "(information)", None)
    kr = kin["add_2p26_kernel_median_ms"] / cupy["add_2p26_kernel_median_ms"]
    row("add_vectors 2^26 kernel time (events)", kin["add_2p26_kernel_median_ms"],
        cupy["add_2p26_kernel_median_ms"], "ms", "within 5 %", abs(kr - 1.0) <= 0.05)
    row("1 GiB upload, kwb pinned staging vs CuPy pinned", kin["upload_1gib_gbps"], cupy["upload_1gib_pinned_gbps"],
        "GB/s", "kwb >= 40 GB/s", kin["upload_1gib_gbps"] >= 40.0)
    row("1 GiB upload, kwb vs CuPy from pageable memory", kin["upload_1gib_gbps"],
        cupy["upload_1gib_pageable_gbps"], "GB/s", "(information)", None)

    print(f"device: {kin.get('device')}")
    widths = [max(len(str(x[i])) for x in rows + [("case", "kwb", "CuPy", "ratio", "target", "")]) for i in range(5)]
    header = ("case", "kwb", "CuPy", "ratio", "target")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)) + "  result")
    all_met = True
    for case, k, c, ratio, target, met in rows:
        verdict = "" if met is None else ("met" if met else "MISSED")
        all_met = all_met and met is not False
        print("  ".join(str(v).ljust(w) for v, w in zip((case, k, c, ratio, target), widths)) + "  " + verdict)
    print(f"kwb add_vectors 2^26: {kin['add_2p26_gbps']:.0f} GB/s effective")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"kwb_in_process": kin, "kwb_serve": kserve, "cupy": cupy}, f, indent=2)
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
