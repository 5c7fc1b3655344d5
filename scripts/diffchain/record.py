#!/usr/bin/env python3
"""Records what a running neo-go node reports about its chain, heights 0..H.

Usage: record.py RPC_URL H OUTDIR

Writes to OUTDIR:
  blocks.jsonl      {index, hash, txs: [tx hashes]} per height
  stateroots.jsonl  getstateroot(i) per height
  applogs.jsonl     {hash, height, kind: block|tx, result: getapplicationlog}
                    for every block and every transaction
"""
import json
import sys
import urllib.request


def rpc(url, method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        answer = json.load(resp)
    if "error" in answer:
        raise RuntimeError(f"{method}{params}: {answer['error']}")
    return answer["result"]


def main():
    url, height, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(f"{out}/blocks.jsonl", "w") as blocks, open(f"{out}/stateroots.jsonl", "w") as roots, \
            open(f"{out}/applogs.jsonl", "w") as logs:
        for i in range(height + 1):
            blk = rpc(url, "getblock", i, 1)
            txs = [tx["hash"] for tx in blk["tx"]]
            blocks.write(json.dumps({"index": i, "hash": blk["hash"], "txs": txs}) + "\n")
            roots.write(json.dumps(rpc(url, "getstateroot", i)) + "\n")
            for kind, h in [("block", blk["hash"])] + [("tx", t) for t in txs]:
                log = rpc(url, "getapplicationlog", h)
                logs.write(json.dumps({"hash": h, "height": i, "kind": kind, "result": log}) + "\n")


if __name__ == "__main__":
    main()
