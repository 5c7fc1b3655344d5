package chain

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// headerVerifier checks headers against their predecessor; it holds only
// protocol values, the state-dependent fee factor is passed per call.
type headerVerifier struct {
	magic uint32
	// validatorsAt returns the number of consensus nodes at a height.
	validatorsAt func(height uint32) int
	vm           WitnessVM
	// sigs is the chain's signature cache (nil: none).
	sigs *keys.SigCache
	// stateRootInHeader: headers must carry the state root after the
	// previous block (neo-go's StateRootInHeader).
	stateRootInHeader bool
}

// verifyHeader applies the reference's header rules in its order: primary
// index, index and previous hash link, strictly increasing timestamp (block
// spacing is not enforced), then the witness against the previous block's
// NextConsensus within HeaderVerificationGasLimit (which VerifyWitnesses
// caps at MaxVerificationGas). picoFee is the exec fee
// factor in picoGAS per price unit of the state the block builds on. With
// StateRootInHeader the header must carry prevRoot, the local state root
// after prev, first (neo-go checks it before the link).
func (v *headerVerifier) verifyHeader(h, prev *block.Header, prevRoot util.Uint256, picoFee int64) error {
	if err := v.checkStateRoot(h, prevRoot); err != nil {
		return err
	}
	return v.verifyLink(h, prev, picoFee)
}

// verifyLink is verifyHeader without the previous state root, which only
// the executed predecessor gives (headers added ahead of their blocks):
// the StateRootInHeader setting, primary index, link, timestamp, witness.
func (v *headerVerifier) verifyLink(h, prev *block.Header, picoFee int64) error {
	if h.StateRootEnabled != v.stateRootInHeader {
		return fmt.Errorf("%w: header %t, network %t", ErrHeaderStateRootSetting, h.StateRootEnabled, v.stateRootInHeader)
	}
	if n := v.validatorsAt(h.Index); int(h.PrimaryIndex) >= n {
		return fmt.Errorf("%w: primary index %d, %d validators", ErrHeaderPrimary, h.PrimaryIndex, n)
	}
	if prev.Index+1 != h.Index {
		return fmt.Errorf("%w: index %d after %d", ErrHeaderIndex, h.Index, prev.Index)
	}
	if prevHash := prev.Hash(); h.PrevHash != prevHash {
		return fmt.Errorf("%w: previous hash %s, expected %s", ErrHeaderPrevHash, h.PrevHash.String(), prevHash.String())
	}
	if h.Timestamp <= prev.Timestamp {
		return fmt.Errorf("%w: timestamp %d not after %d", ErrHeaderTimestamp, h.Timestamp, prev.Timestamp)
	}
	p := witnessParams{
		signData:  h.SignData(v.magic),
		picoFee:   picoFee,
		gasLimit:  min(HeaderVerificationGasLimit, MaxVerificationGas),
		container: h,
		sigs:      v.sigs,
	}
	if _, err := verifyWitness(p, prev.NextConsensus, &h.Witness, v.vm); err != nil {
		return fmt.Errorf("header witness: %w", err)
	}
	return nil
}

// checkStateRoot applies the StateRootInHeader rules: the header's
// setting must be the network's, and its previous state root ours.
func (v *headerVerifier) checkStateRoot(h *block.Header, prevRoot util.Uint256) error {
	if h.StateRootEnabled != v.stateRootInHeader {
		return fmt.Errorf("%w: header %t, network %t", ErrHeaderStateRootSetting, h.StateRootEnabled, v.stateRootInHeader)
	}
	if v.stateRootInHeader && h.PrevStateRoot != prevRoot {
		return fmt.Errorf("%w: header %s, local %s", ErrHeaderStateRoot, h.PrevStateRoot.String(), prevRoot.String())
	}
	return nil
}

// checkBlockLimits applies the block-level limits: configured size and
// transaction count, and the Merkle root (already checked when decoding, but
// not for blocks built in code).
func checkBlockLimits(b *block.Block, maxSize uint32, maxTxs uint16) error {
	if err := b.CheckLimits(int(maxSize), int(maxTxs)); err != nil {
		return err
	}
	if root := b.ComputeMerkleRoot(); root != b.MerkleRoot {
		return fmt.Errorf("%w: %s, computed %s", block.ErrMerkleRoot, b.MerkleRoot.String(), root.String())
	}
	return nil
}

// blockError names the block an error is about.
func blockError(b *block.Header, err error) error {
	return fmt.Errorf("block %d (%s): %w", b.Index, b.Hash().String(), err)
}
