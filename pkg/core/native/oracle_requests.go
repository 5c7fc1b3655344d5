package native

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/storage"
)

// Requests returns every pending request of d by id (the reference's
// OracleContract.GetRequests: what an oracle node still has to answer).
func (o *Oracle) Requests(d *dao.DAO) (map[uint64]*neostate.OracleRequest, error) {
	out := make(map[uint64]*neostate.OracleRequest)
	var bad error
	err := d.SeekStorage(o.md.ID, storage.SeekRange{Prefix: []byte{oraclePrefixRequest}}, func(k, v []byte) bool {
		if len(k) != 9 {
			bad = fmt.Errorf("%w: oracle request key of %d bytes", ErrInvalidState, len(k))
			return false
		}
		r, err := neostate.OracleRequestFromBytes(bytes.Clone(v)) // v is the store's
		if err != nil {
			bad = fmt.Errorf("%w: oracle request: %w", ErrInvalidState, err)
			return false
		}
		out[binary.BigEndian.Uint64(k[1:])] = r
		return true
	})
	if err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, bad
	}
	return out, nil
}
