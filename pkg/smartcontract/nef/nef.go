package nef

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
)

// Format constants of NEF3.
const (
	// Magic is the first four bytes of every NEF file (LE "NEF3").
	Magic uint32 = 0x3346454E
	// CompilerFieldSize is the fixed size of the compiler field.
	CompilerFieldSize = 64
	// MaxSourceLength is the longest source URL, in bytes.
	MaxSourceLength = 256
	// MaxTokens is the largest number of method tokens.
	MaxTokens = 128
	// MaxScriptLength is the largest script (the VM's MaxItemSize).
	MaxScriptLength = 0xFFFF * 2
	// MaxFileSize bounds a whole decoded file (the VM's MaxItemSize).
	MaxFileSize = MaxScriptLength
	// headerSize is magic plus compiler.
	headerSize = 4 + CompilerFieldSize
	// checksumSize is the size of the trailing checksum.
	checksumSize = 4
)

// File is a NEF3 file.
type File struct {
	Compiler string
	Source   string
	Tokens   []MethodToken
	Script   []byte
	Checksum uint32
}

// NewFile builds a valid file and computes its checksum.
func NewFile(compiler, source string, tokens []MethodToken, script []byte) (*File, error) {
	f := &File{Compiler: compiler, Source: source, Tokens: tokens, Script: script}
	if err := f.validateFields(); err != nil {
		return nil, err
	}
	f.Checksum = f.CalculateChecksum()
	return f, nil
}

// validateFields checks every field but the checksum.
func (f *File) validateFields() error {
	switch {
	case len(f.Compiler) > CompilerFieldSize:
		return fmt.Errorf("%w: %d bytes", ErrCompilerTooLong, len(f.Compiler))
	case !utf8.ValidString(f.Compiler) || bytes.IndexByte([]byte(f.Compiler), 0) >= 0:
		return fmt.Errorf("%w: compiler", ErrInvalidString)
	case len(f.Source) > MaxSourceLength:
		return fmt.Errorf("%w: source of %d bytes", ErrInvalidString, len(f.Source))
	case !utf8.ValidString(f.Source):
		return fmt.Errorf("%w: source", ErrInvalidString)
	case len(f.Tokens) > MaxTokens:
		return fmt.Errorf("%w: %d method tokens", ErrTooLarge, len(f.Tokens))
	case len(f.Script) == 0:
		return ErrEmptyScript
	case len(f.Script) > MaxScriptLength:
		return fmt.Errorf("%w: script of %d bytes", ErrTooLarge, len(f.Script))
	}
	for i := range f.Tokens {
		if err := f.Tokens[i].Validate(); err != nil {
			return fmt.Errorf("token %d: %w", i, err)
		}
	}
	return nil
}

// Validate checks the fields, the checksum and the size as decoding does.
func (f *File) Validate() error {
	if err := f.validateFields(); err != nil {
		return err
	}
	if sum := f.CalculateChecksum(); sum != f.Checksum {
		return fmt.Errorf("%w: %d, computed %d", ErrChecksum, f.Checksum, sum)
	}
	if n := f.Size(); n > MaxFileSize {
		return fmt.Errorf("%w: %d bytes", ErrTooLarge, n)
	}
	return nil
}

// Size returns the encoded size of the file.
func (f *File) Size() int {
	n := headerSize + io.GetVarSize(len(f.Source)) + len(f.Source) + 1 +
		io.GetVarSize(len(f.Tokens)) + 2 + io.GetVarSize(len(f.Script)) + len(f.Script) + checksumSize
	for i := range f.Tokens {
		n += f.Tokens[i].size()
	}
	return n
}

// CalculateChecksum returns the checksum of the file's canonical encoding:
// the first four bytes, little-endian, of the double SHA-256 of everything
// but the checksum field.
func (f *File) CalculateChecksum() uint32 {
	w := io.NewBufBinWriter()
	f.encodeBody(w.BinWriter)
	h := hash.DoubleSha256(w.Bytes())
	return binary.LittleEndian.Uint32(h[:4])
}

// encodeBody writes everything but the checksum.
func (f *File) encodeBody(w *io.BinWriter) {
	if len(f.Compiler) > CompilerFieldSize {
		w.Err = fmt.Errorf("%w: %d bytes", ErrCompilerTooLong, len(f.Compiler))
		return
	}
	w.WriteU32LE(Magic)
	var compiler [CompilerFieldSize]byte
	copy(compiler[:], f.Compiler)
	w.WriteBytes(compiler[:])
	w.WriteString(f.Source)
	w.WriteU8(0)
	w.WriteVarUint(uint64(len(f.Tokens)))
	for i := range f.Tokens {
		f.Tokens[i].EncodeBinary(w)
	}
	w.WriteU16LE(0)
	w.WriteVarBytes(f.Script)
}

// EncodeBinary implements io.Encodable.
func (f *File) EncodeBinary(w *io.BinWriter) {
	f.encodeBody(w)
	w.WriteU32LE(f.Checksum)
}

// Bytes returns the encoded file.
func (f *File) Bytes() ([]byte, error) {
	w := io.NewBufBinWriter()
	f.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// DecodeBinary implements io.Decodable with every check of the reference,
// checksum and total size included.
func (f *File) DecodeBinary(r *io.BinReader) {
	f.decode(r, true)
}

// FileFromBytes decodes a file with every check of the reference. Like the
// reference's deployment path it ignores bytes after the checksum.
func FileFromBytes(b []byte) (*File, error) {
	return Parse(b, true)
}

// Parse decodes a file; verify=false skips the checksum and total size
// checks (the reference does so for contract states read from storage).
func Parse(b []byte, verify bool) (*File, error) {
	f := new(File)
	r := io.NewBinReaderFromBuf(b)
	f.decode(r, verify)
	if r.Err != nil {
		return nil, r.Err
	}
	return f, nil
}

func (f *File) decode(r *io.BinReader, verify bool) {
	start := r.Len()
	if m := r.ReadU32LE(); r.Err == nil && m != Magic {
		r.Err = fmt.Errorf("%w: %#x", ErrInvalidMagic, m)
	}
	f.Compiler = readFixedString(r, CompilerFieldSize)
	f.Source = r.ReadString(MaxSourceLength)
	if r.Err == nil && !utf8.ValidString(f.Source) {
		r.Err = fmt.Errorf("%w: source", ErrInvalidString)
	}
	if b := r.ReadU8(); r.Err == nil && b != 0 {
		r.Err = ErrReservedByte
	}
	f.Tokens = io.ReadArray[MethodToken](r, MaxTokens)
	if v := r.ReadU16LE(); r.Err == nil && v != 0 {
		r.Err = ErrReservedByte
	}
	f.Script = r.ReadVarBytes(MaxScriptLength)
	if r.Err == nil && len(f.Script) == 0 {
		r.Err = ErrEmptyScript
	}
	f.Checksum = r.ReadU32LE()
	if r.Err != nil || !verify {
		return
	}
	if sum := f.CalculateChecksum(); sum != f.Checksum {
		r.Err = fmt.Errorf("%w: %d, computed %d", ErrChecksum, f.Checksum, sum)
		return
	}
	consumed := f.Size()
	if start >= 0 {
		consumed = start - r.Len()
	}
	if consumed > MaxFileSize {
		r.Err = fmt.Errorf("%w: %d bytes", ErrTooLarge, consumed)
	}
}

// readFixedString reads a zero-padded UTF-8 string of exactly n bytes; the
// padding after the first zero byte must be all zeros.
func readFixedString(r *io.BinReader, n int) string {
	buf := make([]byte, n)
	r.ReadBytes(buf)
	if r.Err != nil {
		return ""
	}
	end := bytes.IndexByte(buf, 0)
	if end < 0 {
		end = n
	}
	for _, c := range buf[end:] {
		if c != 0 {
			r.Err = fmt.Errorf("%w: non-zero padding", ErrInvalidString)
			return ""
		}
	}
	if !utf8.Valid(buf[:end]) {
		r.Err = fmt.Errorf("%w: compiler", ErrInvalidString)
		return ""
	}
	return string(buf[:end])
}

// MarshalJSON writes the file as getcontractstate prints it: magic,
// compiler, source, tokens, script (base64), checksum.
func (f File) MarshalJSON() ([]byte, error) {
	buf := make([]byte, 0, 160+base64.StdEncoding.EncodedLen(len(f.Script))+len(f.Tokens)*128)
	return f.AppendJSON(buf), nil
}

// AppendJSON appends the JSON form of the file to buf.
func (f *File) AppendJSON(buf []byte) []byte {
	buf = append(buf, `{"magic":`...)
	buf = neojson.AppendNumber(buf, float64(Magic))
	buf = append(buf, `,"compiler":`...)
	buf = neojson.AppendString(buf, f.Compiler)
	buf = append(buf, `,"source":`...)
	buf = neojson.AppendString(buf, f.Source)
	buf = append(buf, `,"tokens":[`...)
	for i := range f.Tokens {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = f.Tokens[i].appendJSON(buf)
	}
	buf = append(buf, `],"script":`...)
	buf = neojson.AppendString(buf, base64.StdEncoding.EncodeToString(f.Script))
	buf = append(buf, `,"checksum":`...)
	buf = neojson.AppendNumber(buf, float64(f.Checksum))
	return append(buf, '}')
}

type fileJSON struct {
	Magic    uint32        `json:"magic"`
	Compiler string        `json:"compiler"`
	Source   string        `json:"source"`
	Tokens   []MethodToken `json:"tokens"`
	Script   []byte        `json:"script"`
	Checksum uint32        `json:"checksum"`
}

// UnmarshalJSON reads the getcontractstate form and validates the file,
// checksum included.
func (f *File) UnmarshalJSON(data []byte) error {
	var aux fileJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	if aux.Magic != Magic {
		return fmt.Errorf("%w: %d", ErrInvalidMagic, aux.Magic)
	}
	if aux.Tokens == nil {
		aux.Tokens = []MethodToken{}
	}
	*f = File{Compiler: aux.Compiler, Source: aux.Source, Tokens: aux.Tokens, Script: aux.Script, Checksum: aux.Checksum}
	return f.Validate()
}
