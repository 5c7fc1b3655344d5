#!/usr/bin/env python3
"""Plot the output of scripts/bench-vs-neogo.sh.

    scripts/bench-vs-neogo.sh > bench.out
    scripts/plot-bench.py bench.out docs/img/restore-vs-neogo.png "10,000 blocks x 4 tx"

Reads the per-run lines (db, node, round, wall s, user s, sys s) and draws,
per database, the median wall and CPU (user+sys) time of each node, with
every run as a dot. Needs matplotlib.
"""
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_runs(path):
    runs = defaultdict(lambda: {"wall": [], "cpu": []})
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 6 or parts[0] not in ("leveldb", "boltdb"):
                continue
            db, node, _, wall, user, sys_ = parts
            runs[(db, node)]["wall"].append(float(wall))
            runs[(db, node)]["cpu"].append(float(user) + float(sys_))
    return runs


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: plot-bench.py BENCH_OUTPUT PNG [TITLE]")
    runs = read_runs(sys.argv[1])
    if not runs:
        sys.exit("no run lines in " + sys.argv[1])
    title = sys.argv[3] if len(sys.argv) > 3 else ""
    dbs = [d for d in ("leveldb", "boltdb") if any(k[0] == d for k in runs)]
    nodes = [n for n in ("n3d", "n3d-base", "neogo") if any(k[1] == n for k in runs)]
    colors = {"n3d": "#2a7ab9", "n3d-base": "#9ab7d3", "neogo": "#d9822b"}
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    width = 0.8 / len(nodes)
    for ax, metric in zip(axes, ("wall", "cpu")):
        for j, node in enumerate(nodes):
            xs, meds = [], []
            for i, db in enumerate(dbs):
                vals = runs.get((db, node), {}).get(metric, [])
                if not vals:
                    continue
                x = i + (j - (len(nodes) - 1) / 2) * width
                xs.append(x)
                meds.append(statistics.median(vals))
                ax.scatter([x] * len(vals), vals, color="black", s=8, zorder=3)
            ax.bar(xs, meds, width, label=node, color=colors.get(node))
            for x, m in zip(xs, meds):
                ax.text(x, m, f"{m:.1f}", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(dbs)))
        ax.set_xticklabels(["LevelDB" if d == "leveldb" else "BoltDB" for d in dbs])
        ax.set_title("wall time (s)" if metric == "wall" else "CPU time, user+sys (s)")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("seconds (lower is better)")
    axes[1].legend()
    fig.suptitle("n3d db restore vs neo-go 0.120.0" + (": " + title if title else ""))
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
