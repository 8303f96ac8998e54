"""Two builds of GPUlayer on the same data, devices and machine, runs
interleaved: the training time of the second as a ratio to the first.

    python3 bench/compare_builds.py --before OLD/bench/gpulayer-bench \
        --after build/bench/gpulayer-bench --devices cpu,cuda,vulkan

For a change that must not alter speed (a restructuring), run on the
machine whose numbers matter, record the table in docs/benchmarks.md.
Data: bench/synth.py's recipe (--rows training rows, 28 features, or 256
with --workload wide, seed 1; a tenth as many test rows, seed 2); binary:logistic, eta 0.1, max_depth 8,
max_bin 256 (--max-bin). Each repeat runs before then after, alternating the order
every other repeat so that neither build always runs on a warmer machine.
Also checks that both builds saved the same model bytes for each device.
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_cuda  # noqa: E402


def run_once(binary, train, test, features, device, rounds, nthread, model, extra_env,
             max_bin=256):
    cmd = [binary, train + ".X.f32", train + ".y.f32", test + ".X.f32", test + ".y.f32",
           str(features), "objective=binary:logistic", f"num_round={rounds}", "eta=0.1",
           "max_depth=8", f"max_bin={max_bin}", f"device={device}"]
    if nthread:
        cmd.append(f"nthread={nthread}")
    env = dict(os.environ, BENCH_MODEL=model, **extra_env)
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"{binary} on {device} failed:\n{out.stderr}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    with open(model, "rb") as f:
        result["model_sha256"] = hashlib.sha256(f.read()).hexdigest()
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--devices", default="cpu")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--nthread", type=int, default=0)
    ap.add_argument("--after-env", action="append", default=[], metavar="KEY=VALUE",
                    help="environment of the after runs only (a tuning variant of "
                         "one build: --before B --after B --after-env ...)")
    ap.add_argument("--workload", default="synthetic", choices=["synthetic", "wide"])
    ap.add_argument("--max-bin", type=int, default=256,
                    help="above 256: every synthetic feature takes 16-bit bin codes")
    ap.add_argument("--data", default="/tmp/gpulayer-bench-data")
    ap.add_argument("--out", default=None, help="write the results as JSON here")
    args = ap.parse_args()

    after_env = dict(kv.split("=", 1) for kv in args.after_env)
    width = bench_cuda.WORKLOADS[args.workload][2]
    bench_cuda.WORKLOADS[args.workload] = (args.rows, max(args.rows // 10, 1000), width)
    data = os.path.join(args.data, f"compare-{args.rows}")
    train, test, features, _ = bench_cuda.ensure_data(data, args.workload, rows=args.rows)
    results = {"workload": args.workload, "rows": args.rows, "features": features,
               "rounds": args.rounds, "after_env": after_env, "devices": {}}
    print("device | before train_s (median) | after train_s (median) | after/before | same model")
    for device in args.devices.split(","):
        times = {"before": [], "after": []}
        digests = {"before": set(), "after": set()}
        for r in range(args.repeats):
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            for which in order:
                binary = args.before if which == "before" else args.after
                res = run_once(binary, train, test, features, device, args.rounds,
                               args.nthread, os.path.join(data, f"model-{which}.json"),
                               after_env if which == "after" else {},
                               max_bin=args.max_bin)
                times[which].append(res["train_s"])
                digests[which].add(res["model_sha256"])
        med = {k: statistics.median(v) for k, v in times.items()}
        same = len(digests["before"] | digests["after"]) == 1
        ratio = med["after"] / med["before"]
        results["devices"][device] = {"train_s": times, "median": med, "ratio": ratio,
                                      "same_model": same}
        print(f"{device} | {med['before']:.3f} ({', '.join(f'{t:.3f}' for t in times['before'])})"
              f" | {med['after']:.3f} ({', '.join(f'{t:.3f}' for t in times['after'])})"
              f" | {ratio:.3f} | {'yes' if same else 'NO'}", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
