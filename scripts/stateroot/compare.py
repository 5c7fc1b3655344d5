#!/usr/bin/env python3
"""Compares the state-root answers of two nodes on one network, height by height.

Usage: compare.py REFERENCE_RPC_URL N3D_RPC_URL [FROM]

For every height from FROM (default 0) to the lower of the two nodes'
heights, getstateroot must be equal (version, index, roothash and the
witnesses); a height validated on one node but not yet on the other is
reported as "pending" (the StateRoot message may still be on its way), not
as a difference. getstateheight's validatedrootindex must not differ by
more than 2. Exits 1 on a difference.

Meant for process-level mixed networks of the state-root service (n3d node
runs it on every node since pkg/node wires it): neo-go state validators with
an n3d observer, and n3d state validators (StateRoot section enabled with a
designated key's wallet) with a neo-go observer. The in-process tests of
scripts/neogo-stateroot-interop.sh run whole n3d nodes (node.New) against
neo-go the same way.
"""
import json
import sys
import urllib.request


def rpc(url, method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        answer = json.load(resp)
    if "error" in answer:
        raise RuntimeError(f"{url} {method}{params}: {answer['error']}")
    return answer["result"]


def main():
    ref, ours = sys.argv[1], sys.argv[2]
    start = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    hr, ho = rpc(ref, "getstateheight"), rpc(ours, "getstateheight")
    top = min(hr["localrootindex"], ho["localrootindex"])
    diffs = pending = validated = 0
    for i in range(start, top + 1):
        a, b = rpc(ref, "getstateroot", i), rpc(ours, "getstateroot", i)
        if a == b:
            validated += bool(a["witnesses"])
            continue
        if a["roothash"] == b["roothash"] and (not a["witnesses"] or not b["witnesses"]):
            pending += 1
            print(f"pending {i}: witnesses {len(a['witnesses'])} vs {len(b['witnesses'])}")
            continue
        diffs += 1
        print(f"DIFF {i}:\n  reference {a}\n  n3d       {b}")
    gap = abs(hr["validatedrootindex"] - ho["validatedrootindex"])
    print(f"heights {start}..{top}: {validated} validated roots equal, {pending} pending, {diffs} different; "
          f"getstateheight reference {hr} n3d {ho}")
    if diffs or gap > 2:
        sys.exit(1)


if __name__ == "__main__":
    main()
