#!/usr/bin/env python3
"""Table and plots of the gossip-policy comparison (scripts/sim-gossip.sh).

    python3 scripts/plot-sim-gossip.py OUT [IMGDIR]

Reads OUT/d<degree>-n<nodes>-<policy>.json (n3d sim --json reports),
prints a Markdown table and, with IMGDIR, writes
sim-gossip-d<degree>-{adverts,bytes,propagation,tps}.png there.
"""
import glob
import json
import math
import os
import re
import sys


def load(out):
    runs = []
    for f in sorted(glob.glob(os.path.join(out, "d*-n*-*.json"))):
        m = re.match(r"d(\d+)-n(\d+)-(.+)\.json$", os.path.basename(f))
        with open(f) as fh:
            r = json.load(fh)
        r["_degree"], r["_policy"] = int(m.group(1)), m.group(3)
        runs.append(r)
    return runs


def per_tx_bytes(r):
    return sum(v["bytes"] for v in (r.get("perTxPerNode") or {}).values())


def table(runs):
    print("| degree | N | policy | incl./acc. | TPS | block int. mean/max ms | view ch. | tx→2/3 p50/p90 ms | tx→all p50/p90 ms | block→all p50/max ms "
          "| adverts/s | adverts/tx | inv / getdata / tx / block / ext. / other msgs per tx per node | bytes/tx/node | CPU cores | heap MiB/node | wall s |")
    print("|" + "---:|" * 17)
    for r in sorted(runs, key=lambda r: (r["_degree"], r["nodes"], r["_policy"])):
        k = r.get("perTxPerNode") or {}
        msgs = " / ".join("%.2f" % k.get(x, {}).get("messages", 0)
                          for x in ["inv", "getdata", "tx", "block", "extensible", "other"])
        ok = "" if not r.get("violations") else " **%d violations**" % len(r["violations"])
        print("| %d | %d | %s | %d/%d%s | %.1f | %.0f / %.0f | %d | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.0f | %.1f | %s | %.0f | %.2f | %.1f | %.0f |" % (
            r["_degree"], r["nodes"], r["_policy"], r["included"], r["accepted"], ok, r["tps"],
            r["blockIntervalMs"][0], r["blockIntervalMs"][1], r.get("viewChangedBlocks", 0),
            r["propagationTwoThirdsMs"][0], r["propagationTwoThirdsMs"][1],
            r["propagationMs"][0], r["propagationMs"][1],
            r["blockPropagationMs"][0], r["blockPropagationMs"][3],
            r["txAdvertsPerSecond"], r["txAdvertsPerTx"], msgs, per_tx_bytes(r),
            r["cpuCores"], r["heapPerNodeMB"][1], r["wallSeconds"]))


def plots(runs, imgdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for degree in sorted({r["_degree"] for r in runs}):
        rs = [r for r in runs if r["_degree"] == degree]
        pols = sorted({r["_policy"] for r in rs})
        topo = "full mesh" if degree == 0 else "random graph, degree >= %d" % degree

        def series(f):
            for p in pols:
                # A run that included nothing (stalled) has no per-tx figure.
                pts = sorted((r["nodes"], f(r)) for r in rs if r["_policy"] == p and r["included"] > 0)
                yield p, [x for x, _ in pts], [y for _, y in pts]

        def fig(name, title, ylabel, f, logy=False, expected=None):
            plt.figure(figsize=(7, 4.5))
            for p, xs, ys in series(f):
                plt.plot(xs, ys, marker="o", label=p)
            ns = sorted({r["nodes"] for r in rs})
            for label, g in (expected or {}).items():
                plt.plot(ns, [g(n) for n in ns], linestyle="--", color="grey", alpha=0.6)
                plt.annotate(label, (ns[-1], g(ns[-1])), fontsize=8, color="grey")
            plt.xscale("log")
            plt.xticks(ns, [str(n) for n in ns])
            plt.minorticks_off()
            if logy:
                plt.yscale("log")
            plt.xlabel("nodes N (%s)" % topo)
            plt.ylabel(ylabel)
            plt.title(title)
            plt.grid(True, which="both", alpha=0.3)
            plt.legend()
            plt.tight_layout()
            plt.savefig(os.path.join(imgdir, "sim-gossip-d%d-%s.png" % (degree, name)), dpi=90)
            plt.close()

        # What each policy makes on a full mesh when no transaction is
        # announced again (dashed): N(N-1), N*ceil(2.5 ln N), N-1.
        expected = None
        if degree == 0:
            expected = {"N(N-1)": lambda n: n * (n - 1),
                        "N*fanout(N)": lambda n: n * math.ceil(2.5 * math.log(n)),
                        "N-1": lambda n: n - 1}
        fig("adverts", "transaction adverts (hashes in invs) per included tx", "adverts per tx",
            lambda r: r["txAdvertsPerTx"], logy=True, expected=expected)
        fig("bytes", "bytes sent per transaction per node (all messages)", "bytes / tx / node",
            per_tx_bytes, logy=True)
        fig("propagation", "tx propagation to every pool, p50 (from submission)", "ms",
            lambda r: r["propagationMs"][0], logy=True)
        fig("tps", "included transactions per second (load 10 tx/s)", "TPS", lambda r: r["tps"])


def main():
    runs = load(sys.argv[1])
    table(runs)
    if len(sys.argv) > 2:
        plots(runs, sys.argv[2])


if __name__ == "__main__":
    main()
