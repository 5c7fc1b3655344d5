package native

import (
	"bytes"
	"fmt"
	"sync/atomic"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// committeeView is the stored committee decoded once: the record's bytes,
// the members in election order, sorted by key, and the committee's
// multisig address. It is read-only once built.
type committeeView struct {
	raw     []byte
	members neostate.Committee
	sorted  [][]byte
	address util.Uint160
}

// committeeCache keeps the last committeeView. Like the reference Go
// node's NEO cache it saves decoding the committee and building its
// multisig address (key decompression, script, hash) on every committee
// check and every block; unlike a per-layer cache it is validated by the
// stored bytes: a lookup always reads the record through the DAO it is
// given and reuses the view only if the bytes are equal, so a change in
// any layer (or a discarded one) can never be served from it. Safe for
// concurrent use.
type committeeCache struct {
	last atomic.Pointer[committeeView]
}

// view returns the committee stored in d.
func (cc *committeeCache) view(d *dao.DAO, id int32) (*committeeView, error) {
	raw, err := d.GetStorageItem(id, []byte{neoPrefixCommittee})
	if err != nil {
		return nil, err
	}
	if v := cc.last.Load(); v != nil && bytes.Equal(v.raw, raw) {
		return v, nil
	}
	v, err := newCommitteeView(raw)
	if err != nil {
		return nil, err
	}
	cc.last.Store(v)
	return v, nil
}

func newCommitteeView(raw []byte) (*committeeView, error) {
	c, err := neostate.CommitteeFromBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidState, err)
	}
	sorted := c.Keys()
	neostate.SortKeys(sorted)
	pubs := make(keys.PublicKeys, len(sorted))
	for i, k := range sorted {
		if pubs[i], err = keys.NewPublicKeyFromBytes(k); err != nil {
			return nil, fmt.Errorf("%w: committee key: %w", ErrInvalidState, err)
		}
	}
	s, err := scripts.MajorityMultiSigContract(pubs)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidState, err)
	}
	return &committeeView{raw: bytes.Clone(raw), members: c, sorted: sorted, address: hash.Hash160(s)}, nil
}
