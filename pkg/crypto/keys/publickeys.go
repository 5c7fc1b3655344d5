package keys

import (
	"encoding/hex"
	"slices"

	"github.com/n3d-io/n3d/pkg/io"
)

// PublicKeys is a list of keys; sort.Sort and slices.SortFunc(…, Cmp) order
// it as the reference orders ECPoint arrays.
type PublicKeys []*PublicKey

func (k PublicKeys) Len() int           { return len(k) }
func (k PublicKeys) Swap(i, j int)      { k[i], k[j] = k[j], k[i] }
func (k PublicKeys) Less(i, j int) bool { return k[i].Cmp(k[j]) < 0 }

// Sort sorts the keys in place.
func (k PublicKeys) Sort() { slices.SortFunc(k, (*PublicKey).Cmp) }

// Contains tells whether p is in the list.
func (k PublicKeys) Contains(p *PublicKey) bool {
	return slices.ContainsFunc(k, p.Equal)
}

// Copy returns a shallow copy.
func (k PublicKeys) Copy() PublicKeys { return slices.Clone(k) }

// Unique returns the keys without duplicates, first occurrence kept.
func (k PublicKeys) Unique() PublicKeys {
	var out PublicKeys
	for _, p := range k {
		if !out.Contains(p) {
			out = append(out, p)
		}
	}
	return out
}

// NewPublicKeysFromStrings decodes hex secp256r1 keys.
func NewPublicKeysFromStrings(ss []string) (PublicKeys, error) {
	out := make(PublicKeys, len(ss))
	for i, s := range ss {
		p, err := NewPublicKeyFromString(s)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// Strings returns the hex encoding of every key.
func (k PublicKeys) Strings() []string {
	out := make([]string, len(k))
	for i, p := range k {
		out[i] = hex.EncodeToString(p.Bytes())
	}
	return out
}

// EncodeBinary writes a var-length array of compressed keys.
func (k PublicKeys) EncodeBinary(w *io.BinWriter) {
	w.WriteVarUint(uint64(len(k)))
	for _, p := range k {
		p.EncodeBinary(w)
	}
}

// ReadPublicKeys reads a var-length array of at most max keys.
func ReadPublicKeys(r *io.BinReader, max int) PublicKeys {
	arr := io.ReadArray[PublicKey](r, max)
	if r.Err != nil {
		return nil
	}
	out := make(PublicKeys, len(arr))
	for i := range arr {
		out[i] = &arr[i]
	}
	return out
}
