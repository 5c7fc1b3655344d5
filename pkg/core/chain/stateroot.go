package chain

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// Keys of the state root records (neo-go's layout): DataMPTAux ‖ u32 BE
// height → StateRoot; DataMPTAux ‖ 0x02 → u32 LE local state height;
// DataMPTAux ‖ 0x03 → u32 LE height of the last root validated by the
// state validators.
const (
	stateRootLocalKey     = 0x02
	stateRootValidatedKey = 0x03
)

// ErrStateRootMismatch is a validated state root that differs from the one
// the chain computed for the block.
var ErrStateRootMismatch = errors.New("chain: state root mismatch")

// StateRoot is the state root of a block as getstateroot reports it. The
// chain computes it locally, without witness; the state validators' one
// (AddValidatedStateRoot) carries their multisignature witness.
type StateRoot struct {
	Version   byte
	Index     uint32
	Root      util.Uint256
	Witnesses []transaction.Witness
}

// EncodeBinary writes version, index, root and the witness array.
func (s *StateRoot) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(s.Version)
	w.WriteU32LE(s.Index)
	s.Root.EncodeBinary(w)
	w.WriteVarUint(uint64(len(s.Witnesses)))
	for i := range s.Witnesses {
		s.Witnesses[i].EncodeBinary(w)
	}
}

// DecodeBinary reads the form EncodeBinary writes (at most one witness).
func (s *StateRoot) DecodeBinary(r *io.BinReader) {
	s.Version = r.ReadU8()
	s.Index = r.ReadU32LE()
	s.Root.DecodeBinary(r)
	s.Witnesses = io.ReadArray[transaction.Witness](r, 1)
}

func stateRootKey(index uint32) []byte {
	k := make([]byte, 5)
	k[0] = byte(storage.DataMPTAux)
	binary.BigEndian.PutUint32(k[1:], index)
	return k
}

// putStateRoot stores the local state root of a block and the local state
// height.
func putStateRoot(st storage.Store, sr *StateRoot) error {
	w := io.NewBufBinWriter()
	sr.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return w.Err
	}
	if err := st.Put(stateRootKey(sr.Index), w.Bytes()); err != nil {
		return err
	}
	h := make([]byte, 4)
	binary.LittleEndian.PutUint32(h, sr.Index)
	return st.Put([]byte{byte(storage.DataMPTAux), stateRootLocalKey}, h)
}

// getStateRoot reads the local state root of a block.
func getStateRoot(st storage.Store, index uint32) (*StateRoot, error) {
	b, err := st.Get(stateRootKey(index))
	if err != nil {
		return nil, fmt.Errorf("chain: state root %d: %w", index, err)
	}
	sr := new(StateRoot)
	r := io.NewBinReaderFromBuf(b)
	sr.DecodeBinary(r)
	if r.Err == nil && r.Len() != 0 {
		r.Err = fmt.Errorf("%d trailing bytes", r.Len())
	}
	if r.Err != nil {
		return nil, fmt.Errorf("chain: state root %d: %w", index, r.Err)
	}
	return sr, nil
}

// EncodeUnsigned writes the signed part: version, index and root.
func (s *StateRoot) EncodeUnsigned(w *io.BinWriter) {
	w.WriteU8(s.Version)
	w.WriteU32LE(s.Index)
	s.Root.EncodeBinary(w)
}

// AddValidatedStateRoot stores a state root the state validators signed,
// with its witness, in place of the local record of its block, and makes
// its index the validated state height (neo-go's AddStateRoot, after the
// caller verified the witness). The block must be on chain and the root
// equal to the local one (else ErrStateRootMismatch); a block whose root
// already has a witness is left as it is.
func (c *Chain) AddValidatedStateRoot(sr *StateRoot) error {
	if len(sr.Witnesses) != 1 {
		return fmt.Errorf("chain: validated state root %d has %d witnesses, want 1", sr.Index, len(sr.Witnesses))
	}
	local, err := c.StateRoot(sr.Index)
	if err != nil {
		return err
	}
	if local.Root != sr.Root {
		return fmt.Errorf("%w at block %d: local %s, validated %s", ErrStateRootMismatch, sr.Index, local.Root, sr.Root)
	}
	if len(local.Witnesses) != 0 {
		return nil
	}
	w := io.NewBufBinWriter()
	sr.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return w.Err
	}
	if err := c.cache.Put(stateRootKey(sr.Index), w.Bytes()); err != nil {
		return fmt.Errorf("chain: validated state root %d: %w", sr.Index, err)
	}
	h := binary.LittleEndian.AppendUint32(nil, sr.Index)
	if err := c.cache.Put([]byte{byte(storage.DataMPTAux), stateRootValidatedKey}, h); err != nil {
		return fmt.Errorf("chain: validated state height: %w", err)
	}
	return nil
}

// ValidatedStateHeight is the index of the last state root stored by
// AddValidatedStateRoot (0 when none was).
func (c *Chain) ValidatedStateHeight() (uint32, error) {
	b, err := c.cache.Get([]byte{byte(storage.DataMPTAux), stateRootValidatedKey})
	if errors.Is(err, storage.ErrKeyNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("chain: validated state height: %w", err)
	}
	if len(b) != 4 {
		return 0, fmt.Errorf("chain: validated state height: %d bytes", len(b))
	}
	return binary.LittleEndian.Uint32(b), nil
}

// StateRootReader is what the state-root service reads of a chain and its
// native contracts.
type StateRootReader struct {
	*Chain
	Natives *NativeSet
}

// StateValidators returns the state validators designated in
// RoleManagement for block index (its latest StateValidator designation at
// or below index), sorted; none gives an empty list.
func (r StateRootReader) StateValidators(index uint32) (keys.PublicKeys, error) {
	d := r.view()
	raw, err := r.Natives.Governance.Designate.DesignatedByRole(d, native.RoleStateValidator, index)
	if err = errors.Join(err, d.Discard()); err != nil {
		return nil, fmt.Errorf("chain: state validators at %d: %w", index, err)
	}
	out := make(keys.PublicKeys, len(raw))
	for i, b := range raw {
		if out[i], err = keys.NewPublicKeyFromBytes(b); err != nil {
			return nil, fmt.Errorf("chain: state validator %d at %d: %w", i, index, err)
		}
	}
	return out, nil
}
