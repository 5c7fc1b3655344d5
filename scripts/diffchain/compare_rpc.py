#!/usr/bin/env python3
"""Compares a running node's RPC answers with a recorded neo-go run.

Usage: compare_rpc.py RPC_URL RUNDIR

For every height of RUNDIR/blocks.jsonl: getblockhash, getstateroot (index
and roothash) and getapplicationlog of the block and of every transaction
(RUNDIR/applogs.jsonl.gz). FAULT exception texts are compared only for
presence. Prints each difference (at most 20) and a summary; exits 1 if any.
"""
import gzip
import json
import sys
import urllib.request


def rpc(url, method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        answer = json.load(resp)
    return answer.get("result", {"error": answer.get("error")})


def norm(log):
    for e in log.get("executions", []):
        if e.get("exception") is not None:
            e["exception"] = "<fault>"
    return log


def main():
    url, run = sys.argv[1], sys.argv[2]
    diffs, checked = [], 0
    blocks = [json.loads(l) for l in open(f"{run}/blocks.jsonl")]
    roots = [json.loads(l) for l in open(f"{run}/stateroots.jsonl")]
    for b, r in zip(blocks, roots):
        h = rpc(url, "getblockhash", b["index"])
        if h != b["hash"]:
            diffs.append(f"getblockhash {b['index']}: {h}, neo-go {b['hash']}")
        ours = rpc(url, "getstateroot", b["index"])
        if not isinstance(ours, dict) or ours.get("roothash") != r["roothash"]:
            diffs.append(f"getstateroot {b['index']}: {ours}, neo-go {r['roothash']}")
        checked += 2
    for line in gzip.open(f"{run}/applogs.jsonl.gz", "rt"):
        ref = json.loads(line)
        ours = rpc(url, "getapplicationlog", ref["hash"])
        checked += 1
        if norm(ours) != norm(ref["result"]):
            diffs.append(f"getapplicationlog {ref['kind']} {ref['hash']} (height {ref['height']}):\n"
                         f"  ours   {json.dumps(ours, sort_keys=True)[:600]}\n"
                         f"  neo-go {json.dumps(ref['result'], sort_keys=True)[:600]}")
    for d in diffs[:20]:
        print(d)
    print(f"rpc: {checked} answers checked, {len(diffs)} differ from neo-go")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
