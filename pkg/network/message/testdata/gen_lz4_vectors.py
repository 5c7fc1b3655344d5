#!/usr/bin/env python3
"""Regenerates lz4_vectors.json: what the LZ4 C library (liblz4, whose fast
compressor K4os.Compression.LZ4 ports for the C# node) produces for the
inputs lz4_test.go rebuilds. Needs liblz4.so.1 and, for the chain cases,
../shared/conformance beside the repository. Run from this directory."""
import base64, ctypes, hashlib, json, os

lib = ctypes.CDLL("liblz4.so.1")

def lz4(b):
    cap = lib.LZ4_compressBound(len(b))
    dst = ctypes.create_string_buffer(cap)
    n = lib.LZ4_compress_default(b, dst, len(b), cap)
    assert n > 0
    return dst.raw[:n]

M = (1 << 64) - 1

def lcg(seed, n):
    x, out = seed, bytearray(n)
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & M
        out[i] = x >> 56
    return bytes(out)

WORDS = [b"neo", b"block", b"transaction", b"witness", b"0x", b"gas", b"contract", b"\x00\x01"]

def words(seed, n):
    r, out, i = lcg(seed, n), bytearray(), 0
    while len(out) < n:
        out += WORDS[r[i % n] % len(WORDS)] + b" "
        i += 1
    return bytes(out[:n])

def synthetic():
    yield "zeros-200", bytes(200)
    yield "zeros-70000", bytes(70000)
    yield "abc-90000", b"abc" * 30000
    yield "rand-5000", lcg(1, 5000)
    yield "acgt-100000", bytes(b"ACGT"[b >> 6] for b in lcg(3, 100000))
    x = lcg(2, 70000)
    yield "far-repeat", x + x[:5000] + x
    for n in (0, 1, 5, 12, 13, 14, 20, 64, 129, 1000, 65546, 65547, 65548, 200000):
        yield "words-%d" % n, words(n, n)

def chain_raws():
    base = os.path.join("..", "..", "..", "..", "..", "shared", "conformance", "chains")
    for chain in ("testblocks", "chain50x2"):
        with open(os.path.join(base, chain, "blocks.jsonl")) as f:
            for line in f:
                j = json.loads(line)
                yield "%s/%d" % (chain, j["index"]), base64.b64decode(j["raw"])

def entry(name, data):
    c = lz4(data)
    return {"name": name, "in": len(data), "out": len(c), "sha256": hashlib.sha256(c).hexdigest()}

cases = [entry(n, d) for n, d in synthetic()]
raws = list(chain_raws())
cases += [entry(n, d) for n, d in raws]
cases.append(entry("chains-x20", b"".join(d for _, d in raws) * 20))
with open("lz4_vectors.json", "w") as f:
    json.dump({"liblz4": lib.LZ4_versionNumber(), "cases": cases}, f, indent=1)
    f.write("\n")
print(len(cases), "cases")
