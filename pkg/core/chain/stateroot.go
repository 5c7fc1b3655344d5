package chain

import (
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// Keys of the state root records (neo-go's layout): DataMPTAux ‖ u32 BE
// height → StateRoot; DataMPTAux ‖ 0x02 → u32 LE local state height.
const stateRootLocalKey = 0x02

// StateRoot is the state root of a block as getstateroot reports it. The
// chain computes it locally, without witness.
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
