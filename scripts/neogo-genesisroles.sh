#!/usr/bin/env bash
# Reference data for Genesis.Roles (TestGenesisRolesMatchNeoGo in
# pkg/core/chain): a single-validator neo-go privnet whose genesis designates
# every node role (Genesis.Roles, a neo-go extension), run for a few blocks
# with neo-go's StateRoot service signing as the one designated state
# validator.
#
# Records, for heights 0..HEIGHT, what the producing neo-go reports
# (scripts/diffchain/record.py: blocks.jsonl, stateroots.jsonl with the
# validated roots' witnesses, applogs.jsonl.gz), getstateheight at the end
# (stateheight.json) and the chain itself (`neo-go db dump`: chain.acc,
# genesis included). protocol.yml is the exact ProtocolConfiguration.
#
# Environment: NEOGO (path of a neo-go v0.122.0 binary, required), OUT
# (default pkg/core/chain/testdata/neogo-genesisroles), HEIGHT (6), PORT
# (21610; RPC is PORT+1), KEEP (1: keep the work directory).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NEOGO=${NEOGO:?set NEOGO to a neo-go v0.122.0 binary}
OUT=${OUT:-$ROOT/pkg/core/chain/testdata/neogo-genesisroles}
HEIGHT=${HEIGHT:-6}
PORT=${PORT:-21610}
RPC=http://127.0.0.1:$((PORT + 1))
SRC=$ROOT/scripts/diffchain

WORK=$(mktemp -d)
NODE_PID=""
cleanup() {
	[ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null && wait "$NODE_PID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# The validator (neo-go's privnet single-node key) and the other keys of
# neo-go's four-node privnet; lists are given unsorted on purpose (the
# contract stores and notifies them sorted).
K1=02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2
K2=02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e
K3=03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699
K4=02a7bc55fe8684e0119768d104ba30795bdcc86619e864add26156723ed185cd62

protocol() {
	cat <<EOF
ProtocolConfiguration:
  Magic: 4243
  MaxTraceableBlocks: 200000
  TimePerBlock: 1s
  Genesis:
    TimePerBlock: 1s
    Roles:
      StateValidator:
        - $K1
      Oracle:
        - $K2
        - $K1
      NeoFSAlphabet:
        - $K3
        - $K1
        - $K4
        - $K2
      P2PNotary:
        - $K3
  MemPoolSize: 1000
  StandbyCommittee:
    - $K1
  ValidatorsCount: 1
  VerifyTransactions: true
  P2PSigExtensions: true
  Hardforks:
    Aspidochelone: 0
    Basilisk: 0
    Cockatrice: 0
    Domovoi: 0
    Echidna: 0
    Faun: 0
    Gorgon: 0
EOF
}

nodeconfig() {
	protocol
	cat <<EOF

ApplicationConfiguration:
  DBConfiguration:
    Type: "leveldb"
    LevelDBOptions:
      DataDirectoryPath: "$WORK/db"
  P2P:
    Addresses:
      - "127.0.0.1:$PORT"
    MinPeers: 0
    MaxPeers: 10
    AttemptConnPeers: 0
  Relay: true
  Consensus:
    Enabled: true
    UnlockWallet:
      Path: "$WORK/wallet1.json"
      Password: "one"
  StateRoot:
    Enabled: true
    UnlockWallet:
      Path: "$WORK/wallet1.json"
      Password: "one"
  RPC:
    Enabled: true
    Addresses:
      - "127.0.0.1:$((PORT + 1))"
EOF
}

rpc() { curl -s -X POST "$RPC" -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['result']$1)"; }

python3 "$SRC/fastwallet.py" "$ROOT/config/wallet.privnet.single.json" one "$WORK/wallet1.json"
nodeconfig >"$WORK/node.yml"
"$NEOGO" node --config-file "$WORK/node.yml" >"$WORK/node.log" 2>&1 &
NODE_PID=$!
# Wait (at most 2 minutes) until HEIGHT+1 blocks exist and the root of
# HEIGHT is validated.
for _ in $(seq 1 600); do
	kill -0 "$NODE_PID" 2>/dev/null || { echo "neo-go exited:"; tail -5 "$WORK/node.log"; exit 1; }
	v=$(rpc getstateheight '[]' | field '["validatedrootindex"]' 2>/dev/null || echo -1)
	[ "$v" -ge "$HEIGHT" ] 2>/dev/null && break
	sleep 0.2
done
[ "$v" -ge "$HEIGHT" ] || { echo "validated root index $v < $HEIGHT"; exit 1; }
mkdir -p "$OUT"
python3 "$SRC/record.py" "$RPC" "$HEIGHT" "$OUT"
rpc getstateheight '[]' | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["result"]))' >"$OUT/stateheight.json"
kill "$NODE_PID"
wait "$NODE_PID" 2>/dev/null || true
NODE_PID=""
"$NEOGO" db dump --config-file "$WORK/node.yml" -c $((HEIGHT + 1)) -o "$OUT/chain.acc" >"$WORK/dump.log" 2>&1
gzip -9 -n -f "$OUT/applogs.jsonl"
{
	protocol
	printf '\nApplicationConfiguration:\n  DBConfiguration:\n    Type: "inmemory"\n'
} >"$OUT/protocol.yml"
echo "recorded heights 0..$HEIGHT into $OUT; genesis root $(head -1 "$OUT/stateroots.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["roothash"])')"
