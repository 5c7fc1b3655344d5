#!/usr/bin/env python3
"""Sends a notary-assisted transaction (NotaryAssisted attribute, the Notary
contract as a signer witnessed by a designated P2PNotary node's signature),
built and signed here since neo-go's CLI has no command for it.

Usage: notarytx.py RPC_URL MAGIC SENDER_WIF NOTARY_WIF CONTRACT METHOD MODE

MODE "cosigner": signers [sender (CalledByEntry), Notary (None)], the sender
pays. MODE "payer": signers [Notary (None), sender (None)], the fees come
from the sender's Notary deposit. The transaction calls METHOD of
CONTRACT (hex as `neogo contract calc-hash` prints it, most significant byte
first) without arguments.
Prints the transaction hash. Needs `cryptography`.
"""
import base64
import hashlib
import json
import os
import struct
import sys
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fastwallet import b58check_decode  # noqa: E402

NOTARY = bytes.fromhex("c1e14f19c3e60d0b9244d06dd7ba9b113135ec3b")[::-1]
CHECKSIG = bytes.fromhex("4156e7b327")  # SYSCALL System.Crypto.CheckSig
CONTRACT_CALL = bytes.fromhex("41627d5b52")  # SYSCALL System.Contract.Call


def rpc(url, method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        answer = json.load(resp)
    if "error" in answer:
        raise RuntimeError(f"{method}: {answer['error']}")
    return answer["result"]


def varbytes(b):
    assert len(b) < 0xfd
    return bytes([len(b)]) + b


def key(wif):
    raw = b58check_decode(wif)
    priv = ec.derive_private_key(int.from_bytes(raw[1:33], "big"), ec.SECP256R1())
    pub = priv.public_key().public_numbers()
    return priv, bytes([2 + (pub.y & 1)]) + pub.x.to_bytes(32, "big")


def script_hash(pub):
    verif = b"\x0c\x21" + pub + CHECKSIG
    return hashlib.new("ripemd160", hashlib.sha256(verif).digest()).digest(), verif


def sign(priv, magic, txhash):
    r, s = decode_dss_signature(priv.sign(struct.pack("<I", magic) + txhash, ec.ECDSA(hashes.SHA256())))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def main():
    url, magic, sender_wif, notary_wif, contract, method, mode = sys.argv[1:8]
    magic = int(magic)
    spriv, spub = key(sender_wif)
    npriv, _ = key(notary_wif)
    sender, sverif = script_hash(spub)
    script = b"\xc2\x1f" + b"\x0c" + varbytes(method.encode()) + b"\x0c\x14" + bytes.fromhex(contract)[::-1] + CONTRACT_CALL
    if mode == "cosigner":
        signers = [(sender, 0x01), (NOTARY, 0x00)]
    else:
        signers = [(NOTARY, 0x00), (sender, 0x00)]
    vub = rpc(url, "getblockcount") + 50
    body = struct.pack("<BIqqI", 0, int.from_bytes(os.urandom(4), "little"), 100_000_000, 200_000_000, vub)
    body += bytes([len(signers)]) + b"".join(acc + bytes([scope]) for acc, scope in signers)
    body += b"\x01\x22\x01"  # one attribute: NotaryAssisted, NKeys 1
    body += varbytes(script)
    txhash = hashlib.sha256(body).digest()
    witnesses = []
    for acc, _ in signers:
        if acc == NOTARY:
            witnesses.append(varbytes(b"\x0c\x40" + sign(npriv, magic, txhash)) + varbytes(b""))
        else:
            witnesses.append(varbytes(b"\x0c\x40" + sign(spriv, magic, txhash)) + varbytes(sverif))
    tx = body + bytes([len(witnesses)]) + b"".join(witnesses)
    print(rpc(url, "sendrawtransaction", base64.b64encode(tx).decode())["hash"])


if __name__ == "__main__":
    main()
