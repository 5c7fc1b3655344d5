#!/usr/bin/env python3
"""Rewrites a NEP-6 wallet with cheap scrypt parameters (n=16, r=1, p=1) so
that each neo-go CLI call does not spend a second decrypting its key.

Usage: fastwallet.py IN.json PASSWORD OUT.json

Every account's NEP-2 key is decrypted with the wallet's own parameters and
encrypted again (NEP-2: scrypt(password, addresshash) → XOR + AES-256-ECB)
with the cheap ones. Needs `cryptography`."""
import hashlib
import json
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58check_decode(s):
    n = 0
    for c in s:
        n = n * 58 + B58.index(c)
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(s) - len(s.lstrip("1"))) + raw
    body, check = raw[:-4], raw[-4:]
    assert hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] == check, "bad checksum"
    return body


def b58check_encode(body):
    raw = body + hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4]
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def aes(key, data, decrypt):
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


def derive(password, salt, p):
    return hashlib.scrypt(password.encode(), salt=salt, n=p["n"], r=p["r"], p=p["p"], dklen=64, maxmem=1 << 30)


def main():
    src, password, dst = sys.argv[1:4]
    w = json.load(open(src))
    cheap = {"n": 16, "r": 1, "p": 1}
    for acc in w["accounts"]:
        payload = b58check_decode(acc["key"])
        addrhash, enc = payload[3:7], payload[7:]
        d = derive(password, addrhash, w["scrypt"])
        priv = bytes(a ^ b for a, b in zip(aes(d[32:], enc, True), d[:32]))
        # The salt is the hash of the key's own standard address, not of
        # the account's (a multisig account shares its key): keep it.
        salt = addrhash
        d = derive(password, salt, cheap)
        enc = aes(d[32:], bytes(a ^ b for a, b in zip(priv, d[:32])), False)
        acc["key"] = b58check_encode(b"\x01\x42\xe0" + salt + enc)
    w["scrypt"] = cheap
    json.dump(w, open(dst, "w"), indent=2)


if __name__ == "__main__":
    main()
