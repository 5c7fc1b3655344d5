package server

import (
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

func (s *Server) getVersion(params.Params) (any, *result.Error) {
	p := s.chain.Config()
	height := s.chain.BlockHeight()
	l, err := s.chain.LimitsAt(height)
	if err != nil {
		return nil, internal("limits", err)
	}
	ms, vub, mtb := uint32(l.TimePerBlock.Milliseconds()), l.MaxValidUntilBlockIncrement, l.MaxTraceableBlocks
	committee := make([]string, len(p.StandbyCommittee))
	for i, k := range p.StandbyCommittee {
		pk, err := keys.NewPublicKeyFromString(k)
		if err != nil {
			return nil, internal("standby committee", err)
		}
		committee[i] = pk.String()
	}
	seeds := p.SeedList
	if seeds == nil {
		seeds = []string{}
	}
	return result.Version{
		TCPPort:   s.cfg.TCPPort,
		Nonce:     s.cfg.Nonce,
		UserAgent: s.cfg.UserAgent,
		Protocol: result.Protocol{
			AddressVersion:              address.NEO3Prefix,
			Network:                     uint32(p.Magic),
			MillisecondsPerBlock:        ms,
			MaxTraceableBlocks:          mtb,
			MaxValidUntilBlockIncrement: vub,
			MaxTransactionsPerBlock:     p.MaxTransactionsPerBlock,
			MemoryPoolMaxTransactions:   p.MemPoolSize,
			ValidatorsCount:             byte(p.ValidatorsCountAt(height)),
			InitialGasDistribution:      int64(p.InitialGASSupply),
			Hardforks:                   result.HardforkList(p.HardforkHeights()),
			StandbyCommittee:            committee,
			SeedList:                    seeds,
			CommitteeHistory:            p.CommitteeHistory,
			P2PSigExtensions:            p.P2PSigExtensions,
			StateRootInHeader:           p.StateRootInHeader,
			ValidatorsHistory:           p.ValidatorsHistory,
		},
		Application: result.Application{
			KeepOnlyLatestState:     s.cfg.KeepOnlyLatestState,
			RemoveUntraceableBlocks: s.cfg.RemoveUntraceableBlocks,
		},
		RPC: result.RPC{
			MaxIteratorResultItems:  s.cfg.MaxIteratorResultItems,
			SessionEnabled:          s.cfg.SessionEnabled,
			SessionExpansionEnabled: s.cfg.SessionExpansionEnabled,
		},
	}, nil
}

// getConnectionCount: the open peer connections (0 without a P2P server).
func (s *Server) getConnectionCount(params.Params) (any, *result.Error) {
	if s.cfg.Peers == nil {
		return 0, nil
	}
	return s.cfg.Peers.ConnectionCount(), nil
}

// getPeers: the P2P server's peers (empty lists without one).
func (s *Server) getPeers(params.Params) (any, *result.Error) {
	out := result.Peers{}
	if s.cfg.Peers != nil {
		out = s.cfg.Peers.PeerList()
	}
	for _, l := range []*[]result.Peer{&out.Unconnected, &out.Connected, &out.Bad} {
		if *l == nil {
			*l = []result.Peer{} // [] rather than null, as the references
		}
	}
	return out, nil
}

func (s *Server) validateAddress(ps params.Params) (any, *result.Error) {
	p := ps.Value(0)
	str, err := p.GetString()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	// The parameter is echoed as given.
	return result.ValidateAddress{Address: p.RawMessage, IsValid: isAddress(str)}, nil
}

func isAddress(s string) bool {
	_, err := address.StringToUint160(s)
	return err == nil
}

func hexKeys(ks [][]byte) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = hex.EncodeToString(k)
	}
	return out
}

func (s *Server) getCommittee(params.Params) (any, *result.Error) {
	ks, err := s.chain.LatestView().CommitteeKeys()
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("can't get committee members: %s", err))
	}
	return hexKeys(ks), nil
}

func (s *Server) getNextBlockValidators(params.Params) (any, *result.Error) {
	d := s.chain.LatestView()
	vs, err := d.NextBlockValidators()
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("Can't get next block validators: %s", err))
	}
	cs, err := d.Candidates()
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("Can't get enrollments: %s", err))
	}
	out := make([]result.Validator, len(vs))
	for i, v := range vs {
		out[i] = result.Validator{PublicKey: hex.EncodeToString(v), Votes: -1}
		for j := range cs {
			if slices.Equal(cs[j].Key, v) {
				out[i].Votes = cs[j].Votes.Int64()
			}
		}
	}
	return out, nil
}

func (s *Server) getCandidates(params.Params) (any, *result.Error) {
	d := s.chain.LatestView()
	vs, err := d.NextBlockValidators()
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("Can't get next block validators: %s", err))
	}
	cs, err := d.Candidates()
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("Can't get enrollments: %s", err))
	}
	out := make([]result.Candidate, len(cs))
	for i := range cs {
		out[i] = result.Candidate{PublicKey: hex.EncodeToString(cs[i].Key), Votes: cs[i].Votes.String(),
			Active: slices.ContainsFunc(vs, func(v []byte) bool { return slices.Equal(v, cs[i].Key) })}
	}
	return out, nil
}

func (s *Server) getUnclaimedGas(ps params.Params) (any, *result.Error) {
	h, err := ps.Value(0).GetUint160FromAddressOrHex()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	d := s.chain.LatestView()
	neo, err := d.NEOBalance(h)
	if err != nil {
		return nil, internal("NEO balance", err)
	}
	if neo.Sign() == 0 {
		return result.UnclaimedGas{Address: h}, nil
	}
	gas, err := d.UnclaimedGAS(h, s.chain.BlockHeight()+1)
	if err != nil {
		return nil, result.NewInternalError(fmt.Sprintf("Can't calculate claimable: %s", err))
	}
	return result.UnclaimedGas{Address: h, Unclaimed: gas}, nil
}
