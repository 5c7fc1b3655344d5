package result

import (
	"encoding/json"

	"github.com/n3d-io/n3d/pkg/protocol"
)

// Version is the getversion answer (neo-go's field order).
type Version struct {
	TCPPort     uint16      `json:"tcpport"`
	WSPort      uint16      `json:"wsport,omitzero"`
	Nonce       uint32      `json:"nonce"`
	UserAgent   string      `json:"useragent"`
	Protocol    Protocol    `json:"protocol"`
	Application Application `json:"application,omitzero"`
	RPC         RPC         `json:"rpc"`
}

// RPC is the "rpc" part of getversion.
type RPC struct {
	MaxIteratorResultItems  int  `json:"maxiteratorresultitems"`
	SessionEnabled          bool `json:"sessionenabled"`
	SessionExpansionEnabled bool `json:"sessionexpansionenabled,omitzero"`
}

// Application is the "application" part of getversion (neo-go extension,
// omitted when every flag is off).
type Application struct {
	SaveInvocations         bool `json:"saveinvocations,omitzero"`
	KeepOnlyLatestState     bool `json:"keeponlylateststate,omitzero"`
	RemoveUntraceableBlocks bool `json:"removeuntraceableblocks,omitzero"`
}

// Hardfork is one entry of the "hardforks" list.
type Hardfork struct {
	Name   string `json:"name"`
	Height uint32 `json:"blockheight"`
}

// Protocol is the "protocol" part of getversion.
type Protocol struct {
	AddressVersion              byte              `json:"addressversion"`
	Network                     uint32            `json:"network"`
	MillisecondsPerBlock        uint32            `json:"msperblock"`
	MaxTraceableBlocks          uint32            `json:"maxtraceableblocks"`
	MaxValidUntilBlockIncrement uint32            `json:"maxvaliduntilblockincrement"`
	MaxTransactionsPerBlock     uint16            `json:"maxtransactionsperblock"`
	MemoryPoolMaxTransactions   int               `json:"memorypoolmaxtransactions"`
	ValidatorsCount             byte              `json:"validatorscount"`
	InitialGasDistribution      int64             `json:"initialgasdistribution"`
	Hardforks                   []Hardfork        `json:"hardforks"`
	StandbyCommittee            []string          `json:"standbycommittee"`
	SeedList                    []string          `json:"seedlist"`
	CommitteeHistory            map[uint32]uint32 `json:"committeehistory,omitzero"`
	P2PSigExtensions            bool              `json:"p2psigextensions,omitzero"`
	StateRootInHeader           bool              `json:"staterootinheader,omitzero"`
	ValidatorsHistory           map[uint32]uint32 `json:"validatorshistory,omitzero"`
}

// HardforkList returns the enabled hardforks of heights in activation
// order (the default one left out).
func HardforkList(heights map[protocol.Hardfork]uint32) []Hardfork {
	out := []Hardfork{}
	for _, hf := range protocol.Hardforks() {
		if h, ok := heights[hf]; ok && hf != protocol.HFDefault {
			out = append(out, Hardfork{Name: hf.String(), Height: h})
		}
	}
	return out
}

var _ json.Marshaler = Block{}
