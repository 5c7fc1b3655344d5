#!/usr/bin/env python3
"""Where a loaded node's time goes, in bins: reads the text dump of an
execution trace (`go tool trace -d=parsed trace.out > parsed.txt`, the
trace taken by run.sh with PPROF_TRACE) and prints, per bin, the cores each
class of goroutine was running (a goroutine's class comes from the first
of its own stacks that names a known function: RPC handlers, the consensus
goroutine that adds the block, the store's flush, the collector, ...), the
cores busy in all, and the RPC answers finished in the bin (a handler going
back to reading its connection). With --summary, the share of bins where
the collector ran (> 0.2 of a core), where the block did (> 0.5), where
the store's flush did (> 0.5), and the rest, with their mean answers and busy cores.

usage: trace-bins.py PARSED.txt [BIN_MS] [--summary]
"""
import collections
import re
import sys

CLASSES = (("frontConn", "rpc"), ("consensus.(*Service).Run", "block"), ("flushLoop", "flush"),
           ("gcBgMarkWorker", "gc"), ("bgsweep", "gc"), ("bgscavenge", "gc"), ("persistLoop", "persist"),
           ("Journal", "journal"), ("txpipe", "pipe"), ("network.", "p2p"))
COLUMNS = ["rpc", "block", "flush", "gc", "persist", "journal", "pipe", "p2p", "other"]
TRANSITION = re.compile(r'StateTransition Time=(\d+) GoID=(\d+) (\w+)->(\w+) Reason="([^"]*)"')


def classify(stack):
    for pattern, cls in CLASSES:
        if pattern in stack:
            return cls
    return None


def scan(path, width):
    classes, started = {}, {}
    busy = collections.defaultdict(collections.Counter)
    answers = collections.Counter()
    t0, pending, stack = None, None, []

    def finish():
        if pending is None:
            return
        g, frm, to, reason, t = pending
        st = " ".join(stack)
        cls = classify(st)
        if cls and g not in classes:
            classes[g] = cls
        if frm == "Running" and g in started:
            a = started.pop(g)
            while a < t:  # spread the running interval over its bins
                b = min(t, t0 + (int((a - t0) // width) + 1) * width)
                busy[int((a - t0) // width)][classes.get(g, "other")] += b - a
                a = b
            if to == "Waiting" and reason == "network" and "frontConn).read" in st:
                answers[int((t - t0) // width)] += 1
        if to == "Running":
            started[g] = t

    own = False  # in the TransitionStack: the goroutine's own (or, when created, its start function)
    with open(path) as f:
        for line in f:
            if line.startswith("M="):
                finish()
                pending, stack, own = None, [], False
                m = TRANSITION.search(line)
                if m:
                    t = int(m.group(1))
                    t0 = t if t0 is None else t0
                    pending = (int(m.group(2)), m.group(3), m.group(4), m.group(5), t)
            elif line.startswith("TransitionStack="):
                own = True
            elif line.startswith("Stack="):
                own = False  # the stack of whoever caused the transition
            elif pending is not None and own and line.startswith("\t") and len(stack) < 60:
                stack.append(line.strip())
    finish()
    return busy, answers


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    width = float(args[1]) * 1e6 if len(args) > 1 else 10e6
    busy, answers = scan(args[0], width)
    rows = []
    for i in sorted(busy):
        c = busy[i]
        rows.append((i * width / 1e6, [c[k] / width for k in COLUMNS], sum(c.values()) / width, answers[i]))
    if "--summary" not in sys.argv:
        print("bin_ms " + " ".join(COLUMNS) + " busy answers")
        for ms, cols, total, n in rows:
            print(f"{ms:.0f} " + " ".join(f"{v:.2f}" for v in cols) + f" {total:.2f} {n}")
        return
    groups = collections.defaultdict(list)
    for ms, cols, total, n in rows:
        cols = dict(zip(COLUMNS, cols))
        key = ("gc" if cols["gc"] > 0.2 else "block" if cols["block"] > 0.5 else
               "flush" if cols["flush"] > 0.5 else "rest")
        groups[key].append((total, n))
    for key in ("rest", "block", "flush", "gc"):
        g = groups[key]
        if g:
            print(f"{key:6s} {len(g) / len(rows):5.0%} of bins  answers/bin {sum(n for _, n in g) / len(g):6.1f}"
                  f"  busy cores {sum(t for t, _ in g) / len(g):.2f}")


if __name__ == "__main__":
    main()
