#!/usr/bin/env python3
"""Plot neo-bench rounds kept by run.sh: TPS per block over time and the RSS curve.

    scripts/bench-tps/plot.py OUT.png "TITLE" ROUND_DIR [ROUND_DIR ...]
    scripts/bench-tps/plot.py OUT.png "TITLE" "n3d r1=path/to/round" "neo-go r1=path/to/other"

Each ROUND_DIR is a folder run.sh left under RESULTS_DIR (<time>-<kind>-<db>-<topo>-<n>-w<w>); a LABEL=DIR
argument names the line, otherwise the label is the kind in the folder's name. Reads:

  bench.log    neo-bench's per-block lines "#N: X transactions in T ms" (the seed tables' DeltaTime /
               TransactionsCount): upper panel, X / T per block, at the block's time since the first
               block that carried transactions;
  samples.txt  run.sh's once-a-second samples (time, CPU ticks, RSS in kB summed over the node processes, ...):
               lower panel, RSS in MB since the bench's "Started test from block".

Needs matplotlib (pip install matplotlib).
"""
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BLOCK = re.compile(r"#(\d+): (\d+) transactions in (\d+) ms")
COLORS = {"n3d": "tab:blue", "neogo": "tab:orange"}


def kind_of(path):
    m = re.search(r"-(n3d|neogo)-", os.path.basename(os.path.normpath(path)))
    return m.group(1) if m else ""


def blocks(path):
    """(seconds since the first non-empty block, TPS of the block) per block from the first non-empty one."""
    rows = []
    with open(os.path.join(path, "bench.log"), errors="replace") as f:
        for line in f:
            m = BLOCK.search(line)
            if m:
                rows.append((int(m.group(2)), int(m.group(3))))
    first = next((i for i, (n, _) in enumerate(rows) if n > 0), None)
    if first is None:
        return [], []
    last = max(i for i, (n, _) in enumerate(rows) if n > 0)
    t, xs, ys = 0.0, [], []
    for n, ms in rows[first:last + 1]:
        t += ms / 1000
        xs.append(t)
        ys.append(n / (ms / 1000) if ms > 0 else 0)
    return xs, ys


def rss(path):
    """(seconds since the first sample, RSS in MB) from samples.txt."""
    xs, ys = [], []
    with open(os.path.join(path, "samples.txt")) as f:
        for line in f:
            p = line.split()
            if len(p) < 5 or float(p[3]) <= 0:  # the bench was exiting
                continue
            xs.append(float(p[0]))
            ys.append(float(p[2]) / 1024)
    return [x - xs[0] for x in xs], ys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[2])
    out, title, rounds = sys.argv[1], sys.argv[2], sys.argv[3:]
    fig, (top, bot) = plt.subplots(2, 1, figsize=(9, 7), sharex=False)
    styles = ["-", "--", ":", "-."]
    seen = {}
    for arg in rounds:
        label, path = arg.split("=", 1) if "=" in arg and not os.path.isdir(arg) else (kind_of(arg), arg)
        kind = kind_of(path) or label
        i = seen.get(kind, 0)
        seen[kind] = i + 1
        style = dict(color=COLORS.get(kind), linestyle=styles[i % len(styles)], linewidth=1.2)
        bx, by = blocks(path)
        top.plot(bx, by, marker=".", markersize=3, label=label, **style)
        rx, ry = rss(path)
        bot.plot(rx, ry, label=label, **style)
    top.set_title(title)
    top.set_xlabel("seconds since the first block with transactions")
    top.set_ylabel("TPS of the block (txs / block interval)")
    top.grid(alpha=0.3)
    top.legend(fontsize=8)
    bot.set_xlabel("seconds since the load started")
    bot.set_ylabel("RSS of the node(s), MB")
    bot.set_ylim(bottom=0)
    bot.grid(alpha=0.3)
    bot.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


if __name__ == "__main__":
    main()
