package payload

import (
	"fmt"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/io"
)

// readStrictString reads a var-length string of at most max bytes that must
// be valid UTF-8 (the reference decodes with a throwing UTF-8 decoder).
func readStrictString(r *io.BinReader, max int) string {
	b := r.ReadVarBytes(max)
	if r.Err != nil {
		return ""
	}
	if !utf8.Valid(b) {
		r.Err = fmt.Errorf("%w: %q", ErrInvalidUTF8, b)
		return ""
	}
	return string(b)
}
