package config

import (
	"crypto/elliptic"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// baseConfig is the shipped unit_testnet config as decoded, before defaults.
func baseConfig(t *testing.T) Config {
	t.Helper()
	cfg, err := Decode([]byte(unitTestNetYAML(t)))
	require.NoError(t, err)
	return cfg
}

func TestValidateErrors(t *testing.T) {
	const (
		badKeyPrefix = "04b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2"
		shortKey     = "02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8d"
	)
	offCurveKey := offCurveCompressedKey(t)
	cases := []struct {
		name   string
		mutate func(c *Config)
		err    error
		text   string
	}{
		{"zero magic", func(c *Config) { c.ProtocolConfiguration.Magic = 0 }, ErrMagic, "Magic"},
		{"empty committee", func(c *Config) { c.ProtocolConfiguration.StandbyCommittee = nil }, ErrCommittee, "StandbyCommittee is empty"},
		{"validators above committee", func(c *Config) { c.ProtocolConfiguration.ValidatorsCount = 7 }, ErrCommittee, "ValidatorsCount 7 exceeds"},
		{"no validators", func(c *Config) { c.ProtocolConfiguration.ValidatorsCount = 0 }, ErrCommittee, "ValidatorsHistory"},
		{"count and history", func(c *Config) { c.ProtocolConfiguration.ValidatorsHistory = map[uint32]uint32{0: 4} }, ErrCommittee, "exactly one"},
		{"key not hex", func(c *Config) { c.ProtocolConfiguration.StandbyCommittee[1] = "zz" }, ErrPublicKey, "StandbyCommittee[1]"},
		{"key bad prefix", func(c *Config) { c.ProtocolConfiguration.StandbyCommittee[2] = badKeyPrefix }, ErrPublicKey, "got 33 bytes"},
		{"key short", func(c *Config) { c.ProtocolConfiguration.StandbyCommittee[0] = shortKey }, ErrPublicKey, "32 bytes"},
		{"key off curve", func(c *Config) { c.ProtocolConfiguration.StandbyCommittee[0] = offCurveKey }, ErrPublicKey, "not a point"},
		{"key repeated", func(c *Config) {
			p := &c.ProtocolConfiguration
			p.StandbyCommittee[5] = p.StandbyCommittee[0]
		}, ErrPublicKey, "repeats StandbyCommittee[0]"},
		{"unknown hardfork", func(c *Config) { c.ProtocolConfiguration.Hardforks["Zebra"] = 9 }, ErrHardfork, `"Zebra"`},
		{"C# hardfork spelling", func(c *Config) { c.ProtocolConfiguration.Hardforks["HF_Faun"] = 9 }, ErrHardfork, `"HF_Faun"`},
		{"hardfork gap", func(c *Config) {
			c.ProtocolConfiguration.Hardforks = map[string]uint32{"Aspidochelone": 1, "Cockatrice": 3}
		}, ErrHardfork, "Basilisk before it is not"},
		{"hardfork gap at zero", func(c *Config) {
			c.ProtocolConfiguration.Hardforks = map[string]uint32{"Aspidochelone": 1, "Cockatrice": 0}
		}, ErrHardfork, "Basilisk before it is not"},
		{"hardfork decreasing", func(c *Config) { c.ProtocolConfiguration.Hardforks["Domovoi"] = 2 }, ErrHardfork, "Domovoi activates at 2, before Cockatrice at 3"},
		{"hardfork zero after nonzero", func(c *Config) { c.ProtocolConfiguration.Hardforks["Faun"] = 0 }, ErrHardfork, "Faun activates at 0"},
		{"sub-millisecond block time", func(c *Config) { c.ProtocolConfiguration.TimePerBlock = 1500 * time.Microsecond }, ErrDuration, "TimePerBlock"},
		{"negative genesis block time", func(c *Config) { c.ProtocolConfiguration.Genesis.TimePerBlock = -time.Second }, ErrDuration, "Genesis.TimePerBlock"},
		{"max time below time", func(c *Config) { c.ProtocolConfiguration.MaxTimePerBlock = 10 * time.Second }, ErrDuration, "MaxTimePerBlock"},
		{"negative mempool", func(c *Config) { c.ProtocolConfiguration.MemPoolSize = -1 }, ErrInvalid, "MemPoolSize"},
		{"memory limit word", func(c *Config) { c.ApplicationConfiguration.Memory.SoftLimit = "lots" }, ErrInvalid, "Memory.SoftLimit"},
		{"memory limit unit", func(c *Config) { c.ApplicationConfiguration.Memory.SoftLimit = "3GB" }, ErrInvalid, "Memory.SoftLimit"},
		{"memory limit tiny", func(c *Config) { c.ApplicationConfiguration.Memory.SoftLimit = "4KiB" }, ErrInvalid, "below 1MiB"},
		{"memory limit overflow", func(c *Config) { c.ApplicationConfiguration.Memory.SoftLimit = "9000000000TiB" }, ErrInvalid, "overflows"},
		{"memory percent", func(c *Config) { c.ApplicationConfiguration.Memory.HeapPercent = 101 }, ErrInvalid, "Memory.HeapPercent"},
		{"bad seed", func(c *Config) { c.ProtocolConfiguration.SeedList[0] = "localhost" }, ErrAddress, "SeedList[0]"},
		{"duplicate seed", func(c *Config) { c.ProtocolConfiguration.SeedList[2] = c.ProtocolConfiguration.SeedList[0] }, ErrAddress, "repeats SeedList[0]"},
		{"unknown genesis role", func(c *Config) {
			c.ProtocolConfiguration.Genesis.Roles = map[string][]string{"Janitor": {c.ProtocolConfiguration.StandbyCommittee[0]}}
		}, ErrInvalid, "Janitor"},
		{"empty genesis role", func(c *Config) { c.ProtocolConfiguration.Genesis.Roles = map[string][]string{"Oracle": {}} }, ErrInvalid, "Genesis.Roles.Oracle has 0 keys"},
		{"bad genesis role key", func(c *Config) { c.ProtocolConfiguration.Genesis.Roles = map[string][]string{"Oracle": {"02"}} }, ErrPublicKey, "Genesis.Roles.Oracle[0]"},
		{"state exchange without root", func(c *Config) { c.ProtocolConfiguration.P2PStateExchangeExtensions = true }, ErrInvalid, "StateRootInHeader"},
		{"bad DB type", func(c *Config) { c.ApplicationConfiguration.DBConfiguration.Type = "rocksdb" }, ErrDBType, `"rocksdb"`},
		{"leveldb without path", func(c *Config) { c.ApplicationConfiguration.DBConfiguration.Type = DBLevelDB }, ErrDBType, "DataDirectoryPath"},
		{"boltdb without path", func(c *Config) { c.ApplicationConfiguration.DBConfiguration.Type = DBBoltDB }, ErrDBType, "FilePath"},
		{"bad log level", func(c *Config) { c.ApplicationConfiguration.LogLevel = "loud" }, ErrLogging, `"loud"`},
		{"bad log encoding", func(c *Config) { c.ApplicationConfiguration.LogEncoding = "xml" }, ErrLogging, `"xml"`},
		{"duplicate P2P address", func(c *Config) {
			c.ApplicationConfiguration.P2P.Addresses = []string{":20333", "0.0.0.0:20333"}
		}, ErrAddress, "port 20333"},
		{"RPC on the P2P port", func(c *Config) { c.ApplicationConfiguration.RPC.Addresses = []string{"127.0.0.1:20333"} }, ErrAddress, "clashes with a P2P listener"},
		{"bad P2P address", func(c *Config) { c.ApplicationConfiguration.P2P.Addresses = []string{"1.2.3.4"} }, ErrAddress, "missing port"},
		{"bad announced port", func(c *Config) { c.ApplicationConfiguration.P2P.Addresses = []string{":1:x"} }, ErrAddress, "announced"},
		{"negative dial timeout", func(c *Config) { c.ApplicationConfiguration.P2P.DialTimeout = -1 }, ErrDuration, "DialTimeout"},
		{"broadcast factor", func(c *Config) { c.ApplicationConfiguration.P2P.BroadcastFactor = 101 }, ErrInvalid, "BroadcastFactor"},
		{"min above max peers", func(c *Config) { c.ApplicationConfiguration.P2P.MinPeers = 51 }, ErrInvalid, "MinPeers 51"},
		{"consensus without wallet", func(c *Config) { c.ApplicationConfiguration.Consensus.Enabled = true }, ErrInvalid, "Consensus is enabled"},
		{"session expansion alone", func(c *Config) {
			c.ApplicationConfiguration.RPC.SessionEnabled = false
			c.ApplicationConfiguration.RPC.SessionExpansionEnabled = true
		}, ErrInvalid, "SessionExpansionEnabled"},
		{"TLS without files", func(c *Config) { c.ApplicationConfiguration.RPC.TLSConfig.Enabled = true }, ErrInvalid, "TLSConfig"},
		{"NeoFS without container", func(c *Config) {
			c.ApplicationConfiguration.NeoFSBlockFetcher.Enabled = true
			c.ApplicationConfiguration.NeoFSBlockFetcher.Addresses = []string{"st1:8080"}
		}, ErrInvalid, "ContainerID is empty"},
		{"NeoFS bad container", func(c *Config) {
			c.ApplicationConfiguration.NeoFSBlockFetcher.Enabled = true
			c.ApplicationConfiguration.NeoFSBlockFetcher.ContainerID = "abc"
		}, ErrInvalid, "base58"},
		{"notary without extensions", func(c *Config) {
			c.ProtocolConfiguration.P2PSigExtensions = false
			c.ApplicationConfiguration.P2PNotary = InternalService{Enabled: true, UnlockWallet: Wallet{Path: "w.json"}}
		}, ErrInvalid, "P2PSigExtensions"},
		{"trusted header without GC", func(c *Config) { c.ApplicationConfiguration.TrustedHeader.Index = 5 }, ErrInvalid, "TrustedHeader"},
		{"trusted header without state sync", func(c *Config) {
			c.ApplicationConfiguration.TrustedHeader.Index = 5
			c.ApplicationConfiguration.RemoveUntraceableBlocks = true
		}, ErrInvalid, "TrustedHeader needs P2PStateExchangeExtensions"},
		{"NeoFS without addresses", func(c *Config) {
			f := &c.ApplicationConfiguration.NeoFSBlockFetcher
			f.Enabled, f.ContainerID = true, validContainer
		}, ErrInvalid, "NeoFSBlockFetcher.Addresses is empty"},
		{"NeoFS negative timeout", func(c *Config) {
			f := &c.ApplicationConfiguration.NeoFSStateFetcher
			f.Enabled, f.ContainerID, f.Addresses, f.Timeout = true, validContainer, []string{"st1:8080"}, -1
		}, ErrDuration, "NeoFSStateFetcher.Timeout"},
		{"NeoFS queue below batch", func(c *Config) {
			f := &c.ApplicationConfiguration.NeoFSBlockFetcher
			f.BQueueSize, f.OIDBatchSize = 10, 20
		}, ErrInvalid, "BQueueSize 10 is below OIDBatchSize 20"},
		{"NeoFS state sync without fetchers", func(c *Config) {
			c.ProtocolConfiguration.NeoFSStateSyncExtensions = true
		}, ErrInvalid, "needs NeoFSBlockFetcher and NeoFSStateFetcher"},
		{"NeoFS state sync on archival node", func(c *Config) {
			c.ProtocolConfiguration.NeoFSStateSyncExtensions = true
			for _, f := range []*NeoFSService{&c.ApplicationConfiguration.NeoFSBlockFetcher.NeoFSService,
				&c.ApplicationConfiguration.NeoFSStateFetcher.NeoFSService} {
				f.Enabled, f.ContainerID, f.Addresses = true, validContainer, []string{"st1:8080"}
			}
		}, ErrInvalid, "needs RemoveUntraceableBlocks"},
		{"state exchange keeping only latest", func(c *Config) {
			c.ProtocolConfiguration.P2PStateExchangeExtensions = true
			c.ProtocolConfiguration.StateRootInHeader = true
			c.ApplicationConfiguration.KeepOnlyLatestState = true
		}, ErrInvalid, "KeepOnlyLatestState"},
		{"both state sync extensions", func(c *Config) {
			c.ProtocolConfiguration.P2PStateExchangeExtensions = true
			c.ProtocolConfiguration.NeoFSStateSyncExtensions = true
		}, ErrInvalid, "cannot both be on"},
		{"empty genesis script", func(c *Config) {
			c.ProtocolConfiguration.Genesis.Transaction = &GenesisTransaction{SystemFee: 1}
		}, ErrInvalid, "Genesis.Transaction.Script is empty"},
		{"negative genesis fee", func(c *Config) {
			c.ProtocolConfiguration.Genesis.Transaction = &GenesisTransaction{Script: Base64Bytes{0x40}, SystemFee: -1}
		}, ErrInvalid, "SystemFee is negative"},
		{"negative RPC session lifetime", func(c *Config) { c.ApplicationConfiguration.RPC.SessionLifetime = -1 }, ErrDuration, "RPC.SessionLifetime"},
		{"oracle without wallet", func(c *Config) { c.ApplicationConfiguration.Oracle.Enabled = true }, ErrInvalid, "Oracle is enabled"},
		{"CommitteeHistory validators", func(c *Config) {
			c.ProtocolConfiguration.CommitteeHistory = map[uint32]uint32{0: 2}
		}, ErrCommittee, "ValidatorsCount 4 exceeds the committee size 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig(t)
			tc.mutate(&cfg)
			cfg.ApplyDefaults()
			err := cfg.Validate()
			require.ErrorIs(t, err, tc.err)
			require.ErrorContains(t, err, tc.text)
		})
	}
}

// offCurveCompressedKey returns a compressed key whose x has no y on P-256:
// x³ - 3x + b is a quadratic non-residue mod p (Jacobi symbol -1).
func offCurveCompressedKey(t *testing.T) string {
	c := elliptic.P256().Params()
	for x := int64(1); x < 100; x++ {
		bx := big.NewInt(x)
		r := new(big.Int).Exp(bx, big.NewInt(3), nil)
		r.Sub(r, new(big.Int).Mul(bx, big.NewInt(3)))
		r.Add(r, c.B)
		r.Mod(r, c.P)
		if big.Jacobi(r, c.P) == -1 {
			return fmt.Sprintf("02%064x", x)
		}
	}
	t.Fatal("no off-curve x below 100")
	return ""
}

// validContainer is neo-go mainnet's block container ID (base58, 32 bytes).
const validContainer = "3RCdP3ZubyKyo8qFeo7EJPryidTZaGCMdUjqFJaaEKBV"

func TestValidateAcceptsBase(t *testing.T) {
	cfg := baseConfig(t)
	cfg.ApplyDefaults()
	require.NoError(t, cfg.Validate())
}

func TestUncompressedCommitteeKey(t *testing.T) {
	cfg := baseConfig(t)
	// The generator point of P-256, uncompressed, and the same key
	// compressed (y is odd: prefix 03) must be seen as one key.
	const gx = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
	const gy = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"
	cfg.ProtocolConfiguration.StandbyCommittee[4] = "04" + gx + gy
	cfg.ApplyDefaults()
	require.NoError(t, cfg.Validate())

	cfg.ProtocolConfiguration.StandbyCommittee[5] = "03" + gx
	err := cfg.Validate()
	require.ErrorIs(t, err, ErrPublicKey)
	require.ErrorContains(t, err, "repeats StandbyCommittee[4]")

	cfg.ProtocolConfiguration.StandbyCommittee[5] = "04" + gx + gx // not on the curve
	require.ErrorIs(t, cfg.Validate(), ErrPublicKey)
}

func TestCommitteeHistory(t *testing.T) {
	cases := []struct {
		name       string
		committee  map[uint32]uint32
		validators map[uint32]uint32
		count      uint32
		text       string // "" means valid
	}{
		{"valid", map[uint32]uint32{0: 1, 20: 4}, map[uint32]uint32{0: 1, 20: 4}, 0, ""},
		{"no zero", map[uint32]uint32{4: 4}, nil, 1, "height 0"},
		{"zero size", map[uint32]uint32{0: 0}, nil, 1, "within 1..6"},
		{"too big", map[uint32]uint32{0: 7}, nil, 1, "within 1..6"},
		{"unaligned", map[uint32]uint32{0: 2, 9: 3}, nil, 1, "multiple of both"},
		{"count above history", map[uint32]uint32{0: 1, 4: 4}, nil, 4, "exceeds the committee size 1 at height 0"},
		{"validators above committee", map[uint32]uint32{0: 1, 20: 4}, map[uint32]uint32{0: 2}, 0, "exceeds the committee size 1"},
		{"validators unaligned", map[uint32]uint32{0: 4}, map[uint32]uint32{0: 1, 6: 4}, 0, "not a multiple"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig(t)
			p := &cfg.ProtocolConfiguration
			p.CommitteeHistory, p.ValidatorsHistory, p.ValidatorsCount = tc.committee, tc.validators, tc.count
			cfg.ApplyDefaults()
			err := cfg.Validate()
			if tc.text == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrCommittee)
			require.ErrorContains(t, err, tc.text)
		})
	}
}

func TestCommitteeHelpers(t *testing.T) {
	p := ProtocolConfiguration{
		StandbyCommittee:  make([]string, 6),
		CommitteeHistory:  map[uint32]uint32{0: 1, 20: 4},
		ValidatorsHistory: map[uint32]uint32{0: 1, 20: 3},
	}
	require.Equal(t, 1, p.CommitteeSize(19))
	require.Equal(t, 4, p.CommitteeSize(20))
	require.Equal(t, 1, p.ValidatorsCountAt(0))
	require.Equal(t, 3, p.ValidatorsCountAt(1000))
	require.True(t, p.ShouldUpdateCommitteeAt(19)) // size 1: every block
	require.False(t, p.ShouldUpdateCommitteeAt(22))
	require.True(t, p.ShouldUpdateCommitteeAt(24))

	p = ProtocolConfiguration{StandbyCommittee: make([]string, 21), ValidatorsCount: 7}
	require.Equal(t, 21, p.CommitteeSize(5))
	require.Equal(t, 7, p.ValidatorsCountAt(5))
	require.True(t, p.ShouldUpdateCommitteeAt(42))
	require.False(t, p.ShouldUpdateCommitteeAt(43))
}

func TestListenAddresses(t *testing.T) {
	cases := []struct {
		in   string
		want AnnounceableAddress
		err  bool
	}{
		{":20333", AnnounceableAddress{Address: ":20333"}, false},
		{"1.2.3.4:20333:30333", AnnounceableAddress{Address: "1.2.3.4:20333", AnnouncedPort: 30333}, false},
		{"1.2.3.4::30333", AnnounceableAddress{Address: "1.2.3.4:0", AnnouncedPort: 30333}, false},
		{"[::1]:20333", AnnounceableAddress{Address: "[::1]:20333"}, false},
		{"[fe80::1]:20333:1", AnnounceableAddress{Address: "[fe80::1]:20333", AnnouncedPort: 1}, false},
		{"localhost:", AnnounceableAddress{Address: "localhost:0"}, false},
		{"", AnnounceableAddress{}, true},
		{"host", AnnounceableAddress{}, true},
		{"::1", AnnounceableAddress{Address: ":0", AnnouncedPort: 1}, false}, // empty host and port, announced 1
		{"a:b:c:d", AnnounceableAddress{}, true},
		{"[::1", AnnounceableAddress{}, true},
		{"[::1]x", AnnounceableAddress{}, true},
		{":70000", AnnounceableAddress{}, true},
	}
	for _, tc := range cases {
		p := P2P{Addresses: []string{tc.in}}
		got, err := p.ListenAddresses()
		if tc.err {
			require.ErrorIs(t, err, ErrAddress, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, []AnnounceableAddress{tc.want}, got, tc.in)
	}
	got, err := (&P2P{}).ListenAddresses()
	require.NoError(t, err)
	require.Equal(t, []AnnounceableAddress{{Address: ":0"}}, got)
}

func TestPortZeroMayRepeat(t *testing.T) {
	cfg := baseConfig(t)
	cfg.ApplicationConfiguration.P2P.Addresses = []string{":0", "127.0.0.1:0"}
	cfg.ApplyDefaults()
	require.NoError(t, cfg.Validate())
}
