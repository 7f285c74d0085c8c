#!/usr/bin/env python3
"""Records the exact stdout bytes of `kwb-run serve` for a few runs, the input of
tests/core/test_client_protocol. Usage: record.py KWB_RUN SAMPLES_DIR OUT_DIR"""
import json, os, signal, subprocess, sys

kwb_run, samples, out_dir = sys.argv[1:4]


def sample(name):
    with open(os.path.join(samples, name)) as f:
        return json.load(f)


def request(rid, op, **members):
    return dict(members, v=4, id=rid, op=op)


def run(rid, doc, **members):
    return request(rid, "run", document=doc, base_dir=samples, device="sim", **members)


def record(name, requests, kill_after_stage=None):
    """Sends the requests one at a time and keeps every byte until each final reply
    (or, with kill_after_stage, kills the runner once that stage of the last comes)."""
    p = subprocess.Popen([kwb_run, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=dict(os.environ, KWB_CACHE_DIR=os.path.join(out_dir, ".cache")))
    wire = b""
    for req in requests:
        p.stdin.write((json.dumps(req) + "\n").encode())
        p.stdin.flush()
        while True:
            line = p.stdout.readline()
            wire += line
            m = json.loads(line)
            if "binary" in m:
                wire += p.stdout.read(m["binary"])
            if m.get("event") == "stage" and m.get("stage") == kill_after_stage and req is requests[-1]:
                p.send_signal(signal.SIGKILL)
                wire += p.stdout.read()
                break
            if "event" not in m and m.get("id") == req["id"]:
                break
    p.stdin.close()
    p.wait()
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(wire)


hello = request(1, "hello")
record("run_passing.bin", [hello, run(2, sample("add_vectors_small.kwb"), return_buffers="outputs")])

broken = sample("add_vectors_small.kwb")
broken["source"] = "__global__ void add_vectors(float *a, float *b, float *c, int n)\n{\n  c[0] = nope;\n}\n"
record("compile_error.bin", [hello, run(2, broken)])

record("printf.bin", [hello, run(2, sample("hello_from_gpu.kwb"))])

faulty = sample("add_vectors_small.kwb")
faulty["source"] = ("__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                    "{ c[threadIdx.x + 1000000] = a[0] + b[0]; }\n")
del faulty["checks"]
no_device = dict(run(3, sample("add_vectors_small.kwb")), device="cuda:99")
record("fault_and_refusal.bin", [hello, run(2, faulty), no_device])

endless = sample("add_vectors_small.kwb")
endless["source"] = ("__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                     "{ for (;;) { c[0] += 1.0f; } }\n")
del endless["checks"]
endless["run"] = {"time_limit_s": 600}
record("cancelled.bin", [hello, run(2, endless)], kill_after_stage="launch")

# A document of steps, small, with the buffers after its second step and the step events.
steps = sample("reduction_two_pass.kwb")
steps["variables"][0] = ["n", "1 << 10"]
record("steps.bin", [hello, run(2, steps, return_buffers="outputs", step_buffers=["2"])])
