#!/usr/bin/env bash
# Records neo-go's JSON-RPC error answers for pkg/rpc/server's
# TestNeoGoErrors (pkg/rpc/server/testdata/neogo-errors.json) and its
# answers to invokecontainedscript for TestNeoGoContained
# (testdata/neogo-contained.json, next to OUT).
#
# Restores the testblocks reference chain (internal/conformance/testdata/chains/
# testblocks) into a neo-go v0.122.0 node with the chain's own
# ProtocolConfiguration, starts it as a lone RPC node (no consensus, so the
# height stays 23 and the pool starts empty), and runs TestRecordNeoGoErrors
# (pkg/rpc/server/neogo_record_test.go), which posts every case in order
# and writes the requests with neo-go's answers. The test replays the same requests, in the same order, against
# n3d's server over the same chain.
#
# Environment: NEOGO (the neo-go binary; build one from a v0.122.0 checkout
# with `go build -o neo-go ./cli`), CONFORMANCE (internal/conformance/testdata),
# PORT (21332: RPC; PORT+1: P2P), OUT (the testdata file), CASES (which
# recordings: "errors contained" by default), KEEP (1: keep the work
# directory).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NEOGO=${NEOGO:-neo-go}
CONFORMANCE=${CONFORMANCE:-$ROOT/internal/conformance/testdata}
PORT=${PORT:-21332}
OUT=${OUT:-$ROOT/pkg/rpc/server/testdata/neogo-errors.json}
CASES=${CASES:-errors contained}
CHAIN=$CONFORMANCE/chains/testblocks

mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT") # go test runs in the package directory
[ -f "$CHAIN/testblocks.acc" ] || { echo "no $CHAIN/testblocks.acc (set CONFORMANCE)" >&2; exit 1; }
command -v "$NEOGO" >/dev/null || { echo "no neo-go binary (set NEOGO)" >&2; exit 1; }

WORK=$(mktemp -d)
NODE_PID=""
cleanup() {
	if [ -n "$NODE_PID" ]; then
		kill "$NODE_PID" 2>/dev/null || true
		wait "$NODE_PID" 2>/dev/null || true
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# The chain's configuration with this run's database and ports.
sed -e "s#\"./chains/testblocks\"#\"$WORK/db\"#" \
	-e "s#127.0.0.1:41333#127.0.0.1:$((PORT + 1))#" \
	-e "s#127.0.0.1:41332#127.0.0.1:$PORT#" \
	"$CHAIN/protocol.yml" >"$WORK/protocol.unit_testnet.yml"

"$NEOGO" db restore -i "$CHAIN/testblocks.acc" --config-file "$WORK/protocol.unit_testnet.yml" >"$WORK/restore.log" 2>&1
"$NEOGO" node --config-file "$WORK/protocol.unit_testnet.yml" >"$WORK/node.log" 2>&1 &
NODE_PID=$!

RPC=http://127.0.0.1:$PORT
for _ in $(seq 100); do
	if curl -sf -d '{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":[]}' "$RPC" >/dev/null 2>&1; then
		break
	fi
	kill -0 "$NODE_PID" 2>/dev/null || { cat "$WORK/node.log" >&2; exit 1; }
	sleep 0.2
done

cd "$ROOT"
for c in $CASES; do
	case $c in
	errors) test=TestRecordNeoGoErrors ;;
	contained) test=TestRecordNeoGoContained ;;
	*) echo "unknown CASES entry $c" >&2; exit 1 ;;
	esac
	go test -count=1 -v -run "^$test\$" ./pkg/rpc/server -args -neogo-record "$RPC" -neogo-out "$OUT" |
		grep -E 'cases written|^(ok|FAIL|---)'
done
