#!/usr/bin/env bash
# P2P notary interop with a real neo-go node (make interop-notary, ~1 min).
#
# Runs TestInteropNotary (pkg/node, build tag interop): a single-validator
# neo-go privnet with P2PSigExtensions on 127.0.0.1 (ephemeral ports) and a
# whole in-process n3d node (pkg/node: chain, P2P, RPC, notary request pool)
# syncing from it, twice: once with neo-go's P2PNotary service as the
# designated notary node, once with n3d's. P2P notary requests go to both
# nodes' submitnotaryrequest and cross the P2P link (inventory 0x50): a 2-of-3
# multisig main transaction completes, lone requests' fallbacks are sent
# after NotValidBefore, both chains agree on every state root, and the pool
# methods answer the same on both nodes.
#
# Environment: NEOGO_BIN (required: a neo-go binary, v0.122.0 was used),
# GO (go).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
: "${NEOGO_BIN:?set NEOGO_BIN to a neo-go binary (built from nspcc-dev/neo-go v0.122.0)}"
export NEOGO_BIN
$GO test -tags interop -count=1 -v -run 'TestInteropNotary' ./pkg/node/ 2>&1 |
	grep -E '^(=== RUN|--- |PASS|FAIL|ok)|_test.go'
