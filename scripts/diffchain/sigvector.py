#!/usr/bin/env python3
"""Prints a fresh secp256r1 key and a SHA-256 ECDSA signature of MSG_HEX:
compressed public key hex, then r||s hex (64 bytes). Needs `cryptography`."""
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

key = ec.generate_private_key(ec.SECP256R1())
r, s = decode_dss_signature(key.sign(bytes.fromhex(sys.argv[1]), ec.ECDSA(hashes.SHA256())))
pub = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
print(pub.hex(), (r.to_bytes(32, "big") + s.to_bytes(32, "big")).hex())
