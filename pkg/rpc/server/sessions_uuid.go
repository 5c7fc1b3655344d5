package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Session and iterator IDs are random (version 4) UUIDs in the canonical
// 8-4-4-4-12 lower-case form, as neo-go's (github.com/google/uuid).

// uuidLen is the length of the canonical form.
const uuidLen = 36

var errUUIDFormat = errors.New("invalid UUID format")

// newUUID returns a random version 4 UUID.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("uuid: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return formatUUID(b), nil
}

func formatUUID(b [16]byte) string {
	var s [uuidLen]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}

// parseUUID reads a UUID in the forms neo-go accepts (canonical, with an
// "urn:uuid:" prefix, in braces, or 32 bare hex digits) and returns its
// canonical form; the errors carry the same text as neo-go's.
func parseUUID(s string) (string, error) {
	switch len(s) {
	case uuidLen:
	case uuidLen + 9:
		if !strings.EqualFold(s[:9], "urn:uuid:") {
			return "", fmt.Errorf("invalid urn prefix: %q", s[:9])
		}
		s = s[9:]
	case uuidLen + 2:
		if s[0] != '{' || s[len(s)-1] != '}' {
			return "", errUUIDFormat
		}
		s = s[1 : len(s)-1]
	case 32:
		var b [16]byte
		if _, err := hex.Decode(b[:], []byte(s)); err != nil {
			return "", errUUIDFormat
		}
		return formatUUID(b), nil
	default:
		return "", fmt.Errorf("invalid UUID length: %d", len(s))
	}
	if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return "", errUUIDFormat
	}
	var b [16]byte
	for i, g := range [][2]int{{0, 8}, {9, 13}, {14, 18}, {19, 23}, {24, 36}} {
		off := [...]int{0, 4, 6, 8, 10}[i]
		if _, err := hex.Decode(b[off:], []byte(s[g[0]:g[1]])); err != nil {
			return "", errUUIDFormat
		}
	}
	return formatUUID(b), nil
}
