package chain

import (
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// Genesis header constants of Neo N3 (the same on every network): the
// timestamp is 2016-07-15 15:08:21 UTC in milliseconds.
var genesisTime = uint64(time.Date(2016, 7, 15, 15, 8, 21, 0, time.UTC).UnixMilli())

const genesisNonce uint64 = 2083236893

// StandbyCommittee decodes the configured standby committee keys, in
// configuration order.
func StandbyCommittee(p *config.ProtocolConfiguration) (keys.PublicKeys, error) {
	pubs, err := keys.NewPublicKeysFromStrings(p.StandbyCommittee)
	if err != nil {
		return nil, fmt.Errorf("chain: standby committee: %w", err)
	}
	return pubs, nil
}

// StandbyValidators returns the validators of height 0: the first
// ValidatorsCountAt(0) keys of the standby committee.
func StandbyValidators(p *config.ProtocolConfiguration) (keys.PublicKeys, error) {
	pubs, err := StandbyCommittee(p)
	if err != nil {
		return nil, err
	}
	n := p.ValidatorsCountAt(0)
	if n <= 0 || n > len(pubs) {
		return nil, fmt.Errorf("%w: %d validators of a %d-key committee", ErrBadConfig, n, len(pubs))
	}
	return pubs[:n:n], nil
}

// BFTAddress is the script hash of the BFT multisignature contract
// (n - (n-1)/3 of n) of the given validators: a block's NextConsensus.
func BFTAddress(validators keys.PublicKeys) (util.Uint160, error) {
	script, err := scripts.DefaultMultiSigContract(validators)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("chain: BFT address: %w", err)
	}
	return scripts.ScriptHash(script), nil
}

// CommitteeAddress is the script hash of the majority multisignature
// contract (n/2+1 of n) of the given committee.
func CommitteeAddress(committee keys.PublicKeys) (util.Uint160, error) {
	script, err := scripts.MajorityMultiSigContract(committee)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("chain: committee address: %w", err)
	}
	return scripts.ScriptHash(script), nil
}

// GenesisBlock builds the genesis block of the configured network: the
// reference's fixed timestamp and nonce, NextConsensus the BFT address of
// the standby validators and a witness whose verification script is PUSH1.
// With Genesis.Transaction configured (a neo-go extension) the block holds
// one transaction running that script, signed by the BFT account (and the
// committee account when it differs), valid until block 1.
func GenesisBlock(p *config.ProtocolConfiguration) (*block.Block, error) {
	validators, err := StandbyValidators(p)
	if err != nil {
		return nil, err
	}
	nextConsensus, err := BFTAddress(validators)
	if err != nil {
		return nil, err
	}
	b := &block.Block{Header: block.Header{
		Version:       block.VersionInitial,
		Timestamp:     genesisTime,
		Nonce:         genesisNonce,
		NextConsensus: nextConsensus,
		Witness:       alwaysTrueWitness(),
		// With StateRootInHeader the genesis header carries a zero
		// previous state root (part of its hash).
		StateRootEnabled: p.StateRootInHeader,
	}}
	if gt := p.Genesis.Transaction; gt != nil {
		tx, err := genesisTransaction(p, gt, nextConsensus)
		if err != nil {
			return nil, err
		}
		b.Transactions = []*transaction.Transaction{tx}
	}
	b.RebuildMerkleRoot()
	b.Hash()
	b.Size()
	return b, nil
}

func genesisTransaction(p *config.ProtocolConfiguration, gt *config.GenesisTransaction,
	nextConsensus util.Uint160) (*transaction.Transaction, error) {
	committee, err := StandbyCommittee(p)
	if err != nil {
		return nil, err
	}
	committeeHash, err := CommitteeAddress(committee)
	if err != nil {
		return nil, err
	}
	tx := &transaction.Transaction{
		SystemFee:       gt.SystemFee,
		ValidUntilBlock: 1,
		Script:          []byte(gt.Script),
		Signers:         []transaction.Signer{{Account: nextConsensus, Scopes: transaction.CalledByEntry}},
		Witnesses:       []transaction.Witness{alwaysTrueWitness()},
	}
	if committeeHash != nextConsensus {
		tx.Signers = append(tx.Signers, transaction.Signer{Account: committeeHash, Scopes: transaction.CalledByEntry})
		tx.Witnesses = append(tx.Witnesses, alwaysTrueWitness())
	}
	if err := tx.CheckSize(); err != nil {
		return nil, fmt.Errorf("chain: genesis transaction: %w", err)
	}
	tx.Hash()
	tx.Size()
	return tx, nil
}

func alwaysTrueWitness() transaction.Witness {
	return transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{byte(opcode.PUSH1)}}
}
