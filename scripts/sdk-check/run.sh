#!/usr/bin/env bash
# The issue 17 SDK check: runs neon-js 5.9 (neon.js) and neo-mamba 2.7
# (mamba.py) through the same sequence of calls against a fresh n3d and a
# fresh neo-go single-validator privnet (config/protocol.privnet.single.yml
# with this run's ports and data directories, the validator wallet
# config/wallet.privnet.single.json), then diffs each SDK's n3d transcript
# against its neo-go transcript. Exits 1 on any difference.
#
# Environment:
#   NEOGO    neo-go v0.122.0 binary (build one: `go build -o neo-go ./cli`
#            in a v0.122.0 checkout)
#   NEON_DIR directory whose node_modules holds @cityofzion/neon-js@5.9.x
#            (`npm install @cityofzion/neon-js@5.9` in an empty directory)
#   MAMBA_PY python with neo-mamba 2.7 (`python3 -m venv v &&
#            v/bin/pip install 'neo-mamba==2.7.*'`; then v/bin/python)
#   PORT     first of four ports (default 22500): n3d RPC/P2P, neo-go RPC/P2P
#   SDKS     "neon mamba" (default) or one of them
#   OUT      directory for transcripts and logs (default: a temporary one,
#            kept when a difference is found)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/scripts/sdk-check
PORT=${PORT:-22500}
SDKS=${SDKS:-neon mamba}
fail() { echo "sdk-check: $*" >&2; exit 2; }

[ -n "${NEOGO:-}" ] || fail "set NEOGO to a neo-go v0.122.0 binary"
[ -x "$NEOGO" ] || command -v "$NEOGO" >/dev/null || fail "NEOGO=$NEOGO is not executable"
for s in $SDKS; do
	case $s in
	neon)
		[ -n "${NEON_DIR:-}" ] || fail "set NEON_DIR to a directory with node_modules/@cityofzion/neon-js (npm install @cityofzion/neon-js@5.9)"
		[ -f "$NEON_DIR/node_modules/@cityofzion/neon-js/package.json" ] || fail "no neon-js under $NEON_DIR/node_modules"
		command -v node >/dev/null || fail "node (Node.js) not found"
		;;
	mamba)
		[ -n "${MAMBA_PY:-}" ] || fail "set MAMBA_PY to a python with neo-mamba 2.7 (pip install 'neo-mamba==2.7.*')"
		"$MAMBA_PY" -c 'import neo3.api.noderpc' 2>/dev/null || fail "$MAMBA_PY cannot import neo3 (neo-mamba)"
		;;
	*) fail "unknown SDK $s" ;;
	esac
done

WORK=${OUT:-$(mktemp -d)}
mkdir -p "$WORK"
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
}
trap cleanup EXIT

echo "sdk-check: building n3d"
(cd "$ROOT" && go build -o "$WORK/n3d-bin" ./cmd/n3d)

# config IMPL RPCPORT P2PPORT: a directory with protocol.privnet.yml.
config() {
	local d=$WORK/$1
	mkdir -p "$d/cfg"
	cp "$ROOT/config/wallet.privnet.single.json" "$d/wallet.json"
	sed -e "s#\"./chains/privnet-single\"#\"$d/db\"#" \
		-e "s#127.0.0.1:20333#127.0.0.1:$3#" \
		-e "s#127.0.0.1:30333#127.0.0.1:$2#" \
		-e "s#\"./config/wallet.privnet.single.json\"#\"$d/wallet.json\"#" \
		"$ROOT/config/protocol.privnet.single.yml" >"$d/cfg/protocol.privnet.yml"
}

# start IMPL BINARY RPCPORT
start() {
	"$2" node --privnet --config-path "$WORK/$1/cfg" >"$WORK/$1/node.log" 2>&1 &
	PIDS+=($!)
	local pid=$!
	for _ in $(seq 150); do
		if curl -sf -d '{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":[]}' "http://127.0.0.1:$3" 2>/dev/null |
			grep -q '"result":[3-9]'; then
			return 0
		fi
		kill -0 "$pid" 2>/dev/null || { tail -20 "$WORK/$1/node.log" >&2; fail "$1 exited"; }
		sleep 0.2
	done
	tail -20 "$WORK/$1/node.log" >&2
	fail "$1 made no blocks"
}

config n3d "$PORT" $((PORT + 1))
config neogo $((PORT + 2)) $((PORT + 3))
start n3d "$WORK/n3d-bin" "$PORT"
start neogo "$NEOGO" $((PORT + 2))
echo "sdk-check: both nodes produce blocks"

run() { # SDK IMPL RPCPORT
	local out=$WORK/$1-$2.json
	case $1 in
	neon) NODE_PATH=$NEON_DIR/node_modules node "$HERE/neon.js" "http://127.0.0.1:$3" "$ROOT/config/wallet.privnet.single.json" "$out" ;;
	mamba) "$MAMBA_PY" "$HERE/mamba.py" "http://127.0.0.1:$3" "$ROOT/config/wallet.privnet.single.json" "$out" ;;
	esac
}

status=0
for s in $SDKS; do
	run "$s" n3d "$PORT" || fail "$s against n3d failed"
	run "$s" neogo $((PORT + 2)) || fail "$s against neo-go failed"
	steps=$(grep -c '^ "' "$WORK/$s-n3d.json" || true)
	if diff -u --label "$s/neo-go" --label "$s/n3d" "$WORK/$s-neogo.json" "$WORK/$s-n3d.json" >"$WORK/$s.diff"; then
		echo "sdk-check: $s: $steps steps, no difference"
	else
		echo "sdk-check: $s: $steps steps, $(grep -c '^@@' "$WORK/$s.diff") differing hunks:"
		cat "$WORK/$s.diff"
		status=1
	fi
done
if [ $status -ne 0 ] || [ -n "${OUT:-}" ]; then
	echo "sdk-check: transcripts and logs in $WORK"
else
	rm -rf "$WORK"
fi
exit $status
