package netconfig

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/n3d-io/n3d/pkg/protocol"
)

// Defaults the reference applies to unset ProtocolConfiguration values.
const (
	DefaultMaxBlockSize            = 262144
	DefaultMaxBlockSystemFee       = 150000000000 // 1500 GAS
	DefaultMaxTraceableBlocks      = 2102400      // one year of 15 s blocks
	DefaultMaxTransactionsPerBlock = 512
	DefaultMemPoolSize             = 50000
	DefaultTimePerBlock            = 15 * time.Second
	// DefaultInitialGASSupply is 52 000 000 GAS, in Fixed8 units.
	DefaultInitialGASSupply                = GAS(52_000_000_00000000)
	DefaultP2PNotaryRequestPayloadPoolSize = 1000
	DefaultStateSyncInterval               = 40000
	// validUntilBlockWindow is the time span the default
	// MaxValidUntilBlockIncrement covers: MaxValidUntilBlockIncrement =
	// validUntilBlockWindow / TimePerBlock.
	validUntilBlockWindow = 24 * time.Hour
)

// GenesisRoles are the node roles Genesis.Roles accepts, in the order the
// designations are made.
var GenesisRoles = []string{"StateValidator", "Oracle", "NeoFSAlphabet", "P2PNotary"}

// MaxGenesisRoleKeys bounds the keys of one role (RoleManagement's limit).
const MaxGenesisRoleKeys = 32

// ProtocolConfiguration holds the rules of a network. Every node of a network
// must use the same values; most of them change blocks and state roots.
type ProtocolConfiguration struct {
	// CommitteeHistory maps a height to the committee size from that height
	// on; empty means len(StandbyCommittee) forever (neo-go extension).
	CommitteeHistory map[uint32]uint32 `yaml:"CommitteeHistory"`
	// Genesis holds the values written at genesis or when Echidna activates.
	Genesis Genesis `yaml:"Genesis"`
	// Magic identifies the network in every signed payload.
	Magic protocol.Magic `yaml:"Magic"`
	// MemPoolSize is the transaction pool capacity.
	MemPoolSize int `yaml:"MemPoolSize"`
	// Hardforks maps a hardfork name to its activation height (see Enabled).
	Hardforks map[string]uint32 `yaml:"Hardforks"`
	// InitialGASSupply is the GAS minted in the genesis block.
	InitialGASSupply GAS `yaml:"InitialGASSupply"`
	// P2PNotaryRequestPayloadPoolSize is the notary request pool capacity
	// (only with P2PSigExtensions).
	P2PNotaryRequestPayloadPoolSize int `yaml:"P2PNotaryRequestPayloadPoolSize"`
	// MaxBlockSize is the largest block in bytes.
	MaxBlockSize uint32 `yaml:"MaxBlockSize"`
	// MaxBlockSystemFee bounds the sum of system fees in a block (Fixed8).
	MaxBlockSystemFee int64 `yaml:"MaxBlockSystemFee"`
	// MaxTraceableBlocks is how far back contracts can see (until Echidna;
	// from then on Genesis.MaxTraceableBlocks seeds the Policy value).
	MaxTraceableBlocks uint32 `yaml:"MaxTraceableBlocks"`
	// MaxTransactionsPerBlock bounds the transactions of a block.
	MaxTransactionsPerBlock uint16 `yaml:"MaxTransactionsPerBlock"`
	// MaxValidUntilBlockIncrement bounds a transaction's ValidUntilBlock
	// above the current height (until Echidna, then the Policy value).
	MaxValidUntilBlockIncrement uint32 `yaml:"MaxValidUntilBlockIncrement"`
	// P2PSigExtensions enables the notary subsystem (neo-go extension).
	P2PSigExtensions bool `yaml:"P2PSigExtensions"`
	// P2PStateExchangeExtensions enables MPT state exchange over P2P
	// (neo-go extension).
	P2PStateExchangeExtensions bool `yaml:"P2PStateExchangeExtensions"`
	// NeoFSStateSyncExtensions enables state sync from NeoFS (neo-go
	// extension).
	NeoFSStateSyncExtensions bool `yaml:"NeoFSStateSyncExtensions"`
	// ReservedAttributes allows the reserved transaction attribute range.
	ReservedAttributes bool `yaml:"ReservedAttributes"`
	// SeedList holds "host:port" addresses to connect to first.
	SeedList []string `yaml:"SeedList"`
	// StandbyCommittee holds the hex public keys of the initial committee;
	// the first ValidatorsCount of them are the initial validators.
	StandbyCommittee []string `yaml:"StandbyCommittee"`
	// StateRootInHeader puts the state root in block headers (neo-go
	// extension).
	StateRootInHeader bool `yaml:"StateRootInHeader"`
	// StateSyncInterval is the distance between state sync points.
	StateSyncInterval int `yaml:"StateSyncInterval"`
	// TimePerBlock is the target block interval (until Echidna; from then on
	// Genesis.TimePerBlock seeds the Policy value). Whole milliseconds.
	TimePerBlock time.Duration `yaml:"TimePerBlock"`
	// MaxTimePerBlock, when set, lets consensus wait up to this long for
	// transactions (neo-go extension). Whole milliseconds.
	MaxTimePerBlock time.Duration `yaml:"MaxTimePerBlock"`
	// ValidatorsCount is the number of consensus nodes (or use
	// ValidatorsHistory, not both).
	ValidatorsCount uint32 `yaml:"ValidatorsCount"`
	// ValidatorsHistory maps a height to the validators count from that
	// height on (neo-go extension).
	ValidatorsHistory map[uint32]uint32 `yaml:"ValidatorsHistory"`
	// VerifyTransactions makes the node verify transactions of received
	// blocks.
	VerifyTransactions bool `yaml:"VerifyTransactions"`
}

// Genesis holds genesis-time values. The three limits seed the native Policy
// contract when Echidna activates, so they change state roots.
type Genesis struct {
	MaxTraceableBlocks          uint32 `yaml:"MaxTraceableBlocks"`
	MaxValidUntilBlockIncrement uint32 `yaml:"MaxValidUntilBlockIncrement"`
	// Roles maps a node role (see GenesisRoles) to hex public keys designated
	// when RoleManagement initialises (neo-go extension, not for public
	// networks).
	Roles map[string][]string `yaml:"Roles"`
	// TimePerBlock seeds Policy's MillisecondsPerBlock. Whole milliseconds.
	TimePerBlock time.Duration `yaml:"TimePerBlock"`
	// Transaction is a script run in the genesis block (neo-go extension,
	// not for public networks).
	Transaction *GenesisTransaction `yaml:"Transaction"`
}

// GenesisTransaction is a script put in the genesis block, signed by the
// validators' (and committee's) multisignature account.
type GenesisTransaction struct {
	Script    Base64Bytes `yaml:"Script"`
	SystemFee int64       `yaml:"SystemFee"`
}

// ApplyDefaults fills unset (zero) values with the reference's defaults and
// resolves the Hardforks map to explicit heights (see Enabled). Negative
// values are left for Validate to reject.
func (p *ProtocolConfiguration) ApplyDefaults() {
	if p.InitialGASSupply == 0 {
		p.InitialGASSupply = DefaultInitialGASSupply
	}
	if p.MemPoolSize == 0 {
		p.MemPoolSize = DefaultMemPoolSize
	}
	if p.P2PSigExtensions && p.P2PNotaryRequestPayloadPoolSize == 0 {
		p.P2PNotaryRequestPayloadPoolSize = DefaultP2PNotaryRequestPayloadPoolSize
	}
	if p.MaxBlockSize == 0 {
		p.MaxBlockSize = DefaultMaxBlockSize
	}
	if p.MaxBlockSystemFee == 0 {
		p.MaxBlockSystemFee = DefaultMaxBlockSystemFee
	}
	if p.MaxTraceableBlocks == 0 {
		p.MaxTraceableBlocks = DefaultMaxTraceableBlocks
	}
	if p.Genesis.MaxTraceableBlocks == 0 {
		p.Genesis.MaxTraceableBlocks = p.MaxTraceableBlocks
	}
	if p.MaxTransactionsPerBlock == 0 {
		p.MaxTransactionsPerBlock = DefaultMaxTransactionsPerBlock
	}
	if p.TimePerBlock == 0 {
		p.TimePerBlock = DefaultTimePerBlock
	}
	if p.Genesis.TimePerBlock == 0 {
		p.Genesis.TimePerBlock = p.TimePerBlock
	}
	if p.MaxValidUntilBlockIncrement == 0 && p.TimePerBlock > 0 {
		p.MaxValidUntilBlockIncrement = uint32(validUntilBlockWindow / p.TimePerBlock)
	}
	if p.Genesis.MaxValidUntilBlockIncrement == 0 {
		p.Genesis.MaxValidUntilBlockIncrement = p.MaxValidUntilBlockIncrement
	}
	if (p.P2PStateExchangeExtensions || p.NeoFSStateSyncExtensions) && p.StateSyncInterval == 0 {
		p.StateSyncInterval = DefaultStateSyncInterval
	}
	p.Hardforks = p.resolvedHardforks()
}

// Validate checks the configuration for internal consistency. Call it after
// ApplyDefaults; other methods rely on a valid configuration.
func (p *ProtocolConfiguration) Validate() error {
	if p.Magic == 0 {
		return fmt.Errorf("%w: Magic must be set (mainnet %d, testnet %d)",
			ErrMagic, uint32(protocol.MainNet), uint32(protocol.TestNet))
	}
	checks := []func() error{
		p.validateDurations,
		p.validateLimits,
		p.validateHardforks,
		p.validateCommittee,
		p.validateHistories,
		p.validateSeeds,
		p.Genesis.validate,
		p.validateExtensions,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func checkMilliseconds(name string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%w: %s is negative (%s)", ErrDuration, name, d)
	}
	if d%time.Millisecond != 0 {
		return fmt.Errorf("%w: %s must be a whole number of milliseconds, got %s", ErrDuration, name, d)
	}
	return nil
}

func (p *ProtocolConfiguration) validateDurations() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"TimePerBlock", p.TimePerBlock},
		{"Genesis.TimePerBlock", p.Genesis.TimePerBlock},
		{"MaxTimePerBlock", p.MaxTimePerBlock},
	} {
		if err := checkMilliseconds(d.name, d.v); err != nil {
			return err
		}
	}
	if p.MaxTimePerBlock > 0 && (p.MaxTimePerBlock <= p.TimePerBlock || p.MaxTimePerBlock <= p.Genesis.TimePerBlock) {
		return fmt.Errorf("%w: MaxTimePerBlock (%s) must be larger than TimePerBlock (%s) and Genesis.TimePerBlock (%s)",
			ErrDuration, p.MaxTimePerBlock, p.TimePerBlock, p.Genesis.TimePerBlock)
	}
	return nil
}

func (p *ProtocolConfiguration) validateLimits() error {
	for _, v := range []struct {
		name string
		v    int64
	}{
		{"MemPoolSize", int64(p.MemPoolSize)},
		{"P2PNotaryRequestPayloadPoolSize", int64(p.P2PNotaryRequestPayloadPoolSize)},
		{"MaxBlockSystemFee", p.MaxBlockSystemFee},
		{"InitialGASSupply", int64(p.InitialGASSupply)},
		{"StateSyncInterval", int64(p.StateSyncInterval)},
	} {
		if v.v < 0 {
			return fmt.Errorf("%w: %s is negative (%d)", ErrInvalid, v.name, v.v)
		}
	}
	return nil
}

func (p *ProtocolConfiguration) validateCommittee() error {
	if len(p.StandbyCommittee) == 0 {
		return fmt.Errorf("%w: StandbyCommittee is empty", ErrCommittee)
	}
	if err := checkKeyList("StandbyCommittee", p.StandbyCommittee); err != nil {
		return err
	}
	if (p.ValidatorsCount == 0) == (len(p.ValidatorsHistory) == 0) {
		return fmt.Errorf("%w: set exactly one of ValidatorsCount and ValidatorsHistory", ErrCommittee)
	}
	if int(p.ValidatorsCount) > len(p.StandbyCommittee) {
		return fmt.Errorf("%w: ValidatorsCount %d exceeds the StandbyCommittee size %d",
			ErrCommittee, p.ValidatorsCount, len(p.StandbyCommittee))
	}
	return nil
}

type heightCount struct{ height, count uint32 }

// sortedHistory validates the counts of a height→count map and returns it
// sorted by height; it must start at height 0.
func sortedHistory(name string, m map[uint32]uint32, limit int) ([]heightCount, error) {
	hist := make([]heightCount, 0, len(m))
	for _, h := range slices.Sorted(maps.Keys(m)) {
		n := m[h]
		if n == 0 || int(n) > limit {
			return nil, fmt.Errorf("%w: %s[%d] = %d, must be within 1..%d (StandbyCommittee size)",
				ErrCommittee, name, h, n, limit)
		}
		hist = append(hist, heightCount{h, n})
	}
	if hist[0].height != 0 {
		return nil, fmt.Errorf("%w: %s must have an entry for height 0", ErrCommittee, name)
	}
	return hist, nil
}

func (p *ProtocolConfiguration) validateHistories() error {
	if len(p.CommitteeHistory) != 0 {
		hist, err := sortedHistory("CommitteeHistory", p.CommitteeHistory, len(p.StandbyCommittee))
		if err != nil {
			return err
		}
		for i := 1; i < len(hist); i++ {
			h := hist[i].height
			if h%hist[i].count != 0 || h%hist[i-1].count != 0 {
				return fmt.Errorf("%w: CommitteeHistory height %d must be a multiple of both committee sizes %d and %d",
					ErrCommittee, h, hist[i-1].count, hist[i].count)
			}
		}
		for _, hc := range hist {
			if p.ValidatorsCount > hc.count {
				return fmt.Errorf("%w: ValidatorsCount %d exceeds the committee size %d at height %d",
					ErrCommittee, p.ValidatorsCount, hc.count, hc.height)
			}
		}
	}
	if len(p.ValidatorsHistory) != 0 {
		hist, err := sortedHistory("ValidatorsHistory", p.ValidatorsHistory, len(p.StandbyCommittee))
		if err != nil {
			return err
		}
		for _, hc := range hist {
			size := uint32(p.CommitteeSize(hc.height))
			if hc.count > size {
				return fmt.Errorf("%w: ValidatorsHistory[%d] = %d exceeds the committee size %d there",
					ErrCommittee, hc.height, hc.count, size)
			}
			if hc.height%size != 0 {
				return fmt.Errorf("%w: ValidatorsHistory height %d is not a multiple of the committee size %d",
					ErrCommittee, hc.height, size)
			}
		}
	}
	return nil
}

func (p *ProtocolConfiguration) validateSeeds() error {
	seen := make(map[string]int, len(p.SeedList))
	for i, s := range p.SeedList {
		host, port, err := net.SplitHostPort(s)
		if err != nil || host == "" {
			return fmt.Errorf("%w: SeedList[%d] %q must be host:port", ErrAddress, i, s)
		}
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return fmt.Errorf("%w: SeedList[%d] %q has a bad port: %w", ErrAddress, i, s, err)
		}
		if j, dup := seen[s]; dup {
			return fmt.Errorf("%w: SeedList[%d] %q repeats SeedList[%d]", ErrAddress, i, s, j)
		}
		seen[s] = i
	}
	return nil
}

func (g *Genesis) validate() error {
	for _, role := range slices.Sorted(maps.Keys(g.Roles)) {
		if !slices.Contains(GenesisRoles, role) {
			return fmt.Errorf("%w: Genesis.Roles has unknown role %q (known: %v)", ErrInvalid, role, GenesisRoles)
		}
		if n := len(g.Roles[role]); n == 0 || n > MaxGenesisRoleKeys {
			// RoleManagement refuses the designation, and so the genesis.
			return fmt.Errorf("%w: Genesis.Roles.%s has %d keys, want 1..%d", ErrInvalid, role, n, MaxGenesisRoleKeys)
		}
		if err := checkKeyList("Genesis.Roles."+role, g.Roles[role]); err != nil {
			return err
		}
	}
	if g.Transaction != nil {
		if len(g.Transaction.Script) == 0 {
			return fmt.Errorf("%w: Genesis.Transaction.Script is empty", ErrInvalid)
		}
		if g.Transaction.SystemFee < 0 {
			return fmt.Errorf("%w: Genesis.Transaction.SystemFee is negative", ErrInvalid)
		}
	}
	return nil
}

func (p *ProtocolConfiguration) validateExtensions() error {
	if p.P2PStateExchangeExtensions && p.NeoFSStateSyncExtensions {
		return fmt.Errorf("%w: P2PStateExchangeExtensions and NeoFSStateSyncExtensions cannot both be on", ErrInvalid)
	}
	if p.P2PStateExchangeExtensions && !p.StateRootInHeader {
		return fmt.Errorf("%w: P2PStateExchangeExtensions requires StateRootInHeader", ErrInvalid)
	}
	return nil
}

// CommitteeSize returns the committee size at the given height.
func (p *ProtocolConfiguration) CommitteeSize(height uint32) int {
	if len(p.CommitteeHistory) == 0 {
		return len(p.StandbyCommittee)
	}
	return int(historyAt(p.CommitteeHistory, height))
}

// ValidatorsCountAt returns the number of consensus nodes at the given height.
func (p *ProtocolConfiguration) ValidatorsCountAt(height uint32) int {
	if len(p.ValidatorsHistory) == 0 {
		return int(p.ValidatorsCount)
	}
	return int(historyAt(p.ValidatorsHistory, height))
}

// ShouldUpdateCommitteeAt reports whether the committee is recomputed in the
// block at the given height (every CommitteeSize blocks).
func (p *ProtocolConfiguration) ShouldUpdateCommitteeAt(height uint32) bool {
	size := p.CommitteeSize(height)
	return size > 0 && height%uint32(size) == 0
}

// historyAt returns the value of the entry with the largest height not above
// the given one.
func historyAt(m map[uint32]uint32, height uint32) uint32 {
	var best, val uint32
	found := false
	for h, n := range m {
		if h <= height && (!found || h > best) {
			best, val, found = h, n, true
		}
	}
	return val
}
