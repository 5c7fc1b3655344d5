package nef

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
	"github.com/n3d-io/n3d/pkg/util"
)

// TestNEFConformance reads every NEF the reference node reported, which
// validates its checksum against our binary encoding, writes it back to JSON
// and round-trips it through the binary form.
func TestNEFConformance(t *testing.T) {
	for _, c := range refdata.Contracts(t) {
		var f File
		require.NoError(t, json.Unmarshal(c.NEF, &f), c.Hash)
		out, err := json.Marshal(f)
		require.NoError(t, err)
		refdata.RequireSameJSON(t, c.NEF, out, c.Hash)

		b, err := f.Bytes()
		require.NoError(t, err)
		require.Equal(t, f.Size(), len(b))
		g, err := FileFromBytes(b)
		require.NoError(t, err)
		require.Equal(t, &f, g)
	}
}

// TestNEFDeployedBytes decodes the NEF bytes of every deploying transaction
// and checks the re-encoding and the checksum the node reports.
func TestNEFDeployedBytes(t *testing.T) {
	checksums := make(map[string]uint32)
	for _, c := range refdata.Contracts(t) {
		var aux struct {
			Checksum uint32 `json:"checksum"`
		}
		require.NoError(t, json.Unmarshal(c.NEF, &aux))
		checksums[c.Hash] = aux.Checksum
	}
	var n int
	for _, chain := range []string{"testblocks", "chain50x2"} {
		for _, d := range refdata.Deploys(t, chain) {
			f, err := FileFromBytes(d.NEF)
			require.NoError(t, err, d.TxHash)
			require.Equal(t, checksums[d.Hash.String()], f.Checksum)
			b, err := f.Bytes()
			require.NoError(t, err)
			require.Equal(t, d.NEF, b)
			n++
		}
	}
	require.NotZero(t, n)
}

func testFile(t *testing.T) *File {
	f, err := NewFile("n3d-test", "https://example.org/src", []MethodToken{{
		Hash: util.Uint160{1, 2, 3}, Method: "transfer", ParamCount: 4, HasReturn: true, CallFlag: callflag.All,
	}, {
		Hash: util.Uint160{9}, Method: "balanceOf", ParamCount: 1, HasReturn: true, CallFlag: callflag.ReadStates,
	}}, []byte{0x11, 0x40})
	require.NoError(t, err)
	return f
}

func TestRoundTrip(t *testing.T) {
	f := testFile(t)
	b, err := f.Bytes()
	require.NoError(t, err)
	g, err := FileFromBytes(b)
	require.NoError(t, err)
	require.Equal(t, f, g)

	var h File
	r := io.NewBinReaderFromBuf(b)
	h.DecodeBinary(r)
	require.NoError(t, r.Err)
	require.Equal(t, f, &h)

	js, err := json.Marshal(f)
	require.NoError(t, err)
	var k File
	require.NoError(t, json.Unmarshal(js, &k))
	require.Equal(t, f, &k)
}

// offsets of the fields of testFile's encoding.
const (
	offCompiler = 4
	offSource   = 4 + 64
)

func mutate(t *testing.T, f *File, fn func(b []byte) []byte) []byte {
	b, err := f.Bytes()
	require.NoError(t, err)
	return fn(bytes.Clone(b))
}

func TestDecodeErrors(t *testing.T) {
	f := testFile(t)
	srcEnd := offSource + 1 + len(f.Source)
	tokStart := srcEnd + 1 + 1
	for name, tc := range map[string]struct {
		data []byte
		err  error
	}{
		"magic":          {mutate(t, f, func(b []byte) []byte { b[0]++; return b }), ErrInvalidMagic},
		"padding":        {mutate(t, f, func(b []byte) []byte { b[offSource-1] = 1; return b }), ErrInvalidString},
		"compiler utf8":  {mutate(t, f, func(b []byte) []byte { b[offCompiler] = 0xff; return b }), ErrInvalidString},
		"source utf8":    {mutate(t, f, func(b []byte) []byte { b[offSource+1] = 0xff; return b }), ErrInvalidString},
		"reserved1":      {mutate(t, f, func(b []byte) []byte { b[srcEnd] = 1; return b }), ErrReservedByte},
		"method _":       {mutate(t, f, func(b []byte) []byte { b[tokStart+20+1] = '_'; return b }), ErrInvalidMethod},
		"bool byte":      {mutate(t, f, func(b []byte) []byte { b[tokStart+20+1+8+2] = 2; return b }), ErrInvalidMethod},
		"call flags":     {mutate(t, f, func(b []byte) []byte { b[tokStart+20+1+8+3] = 0x10; return b }), ErrInvalidMethod},
		"checksum":       {mutate(t, f, func(b []byte) []byte { b[len(b)-1]++; return b }), ErrChecksum},
		"script changed": {mutate(t, f, func(b []byte) []byte { b[len(b)-5]++; return b }), ErrChecksum},
		"truncated":      {mutate(t, f, func(b []byte) []byte { return b[:len(b)-1] }), nil},
		"empty":          {nil, nil},
	} {
		_, err := FileFromBytes(tc.data)
		require.Error(t, err, name)
		if tc.err != nil {
			require.ErrorIs(t, err, tc.err, name)
		}
	}
}

func TestFieldLimits(t *testing.T) {
	encode := func(f *File) []byte {
		w := io.NewBufBinWriter()
		f.encodeBody(w.BinWriter)
		w.WriteU32LE(f.CalculateChecksum())
		require.NoError(t, w.Err)
		return w.Bytes()
	}
	base := func() *File { return testFile(t) }

	f := base()
	f.Source = strings.Repeat("s", MaxSourceLength)
	_, err := FileFromBytes(encode(f))
	require.NoError(t, err)
	f.Source += "s"
	_, err = FileFromBytes(encode(f))
	require.ErrorIs(t, err, io.ErrTooLarge)

	f = base()
	f.Compiler = strings.Repeat("c", CompilerFieldSize)
	_, err = FileFromBytes(encode(f))
	require.NoError(t, err)
	f.Compiler += "c"
	_, err = f.Bytes()
	require.ErrorIs(t, err, ErrCompilerTooLong)

	f = base()
	f.Tokens[0].Method = strings.Repeat("m", MaxMethodLength)
	_, err = FileFromBytes(encode(f))
	require.NoError(t, err)
	f.Tokens[0].Method += "m"
	_, err = FileFromBytes(encode(f))
	require.ErrorIs(t, err, io.ErrTooLarge)

	f = base()
	f.Tokens = make([]MethodToken, MaxTokens)
	_, err = FileFromBytes(encode(f))
	require.NoError(t, err)
	f.Tokens = append(f.Tokens, MethodToken{})
	_, err = FileFromBytes(encode(f))
	require.ErrorIs(t, err, io.ErrTooLarge)

	f = base()
	f.Script = nil
	_, err = FileFromBytes(encode(f))
	require.ErrorIs(t, err, ErrEmptyScript)

	// The largest script fits alone but the whole file then exceeds the
	// size bound: only a verifying decode rejects it.
	f = base()
	f.Script = make([]byte, MaxScriptLength)
	b := encode(f)
	_, err = FileFromBytes(b)
	require.ErrorIs(t, err, ErrTooLarge)
	_, err = Parse(b, false)
	require.NoError(t, err)
	f.Script = append(f.Script, 0)
	_, err = Parse(encode(f), false)
	require.ErrorIs(t, err, io.ErrTooLarge)
}

func TestReservedWord(t *testing.T) {
	f := testFile(t)
	b, err := f.Bytes()
	require.NoError(t, err)
	// The two reserved bytes follow the tokens and precede the script.
	pos := len(b) - 4 - len(f.Script) - 1 - 2
	require.Equal(t, []byte{0, 0}, b[pos:pos+2])
	b[pos+1] = 1
	_, err = FileFromBytes(b)
	require.ErrorIs(t, err, ErrReservedByte)
}

// A file whose var-ints are not minimal still decodes; its checksum is the
// one of the canonical encoding, as in the reference.
func TestNonCanonicalVarInt(t *testing.T) {
	f := testFile(t)
	b, err := f.Bytes()
	require.NoError(t, err)
	// Replace the one-byte source length by 0xfd + uint16.
	n := b[offSource]
	long := append(append(bytes.Clone(b[:offSource]), 0xfd, n, 0), b[offSource+1:]...)
	g, err := FileFromBytes(long)
	require.NoError(t, err)
	require.Equal(t, f, g)
}

func TestTrailingBytesIgnored(t *testing.T) {
	f := testFile(t)
	b, err := f.Bytes()
	require.NoError(t, err)
	g, err := FileFromBytes(append(b, 1, 2, 3))
	require.NoError(t, err)
	require.Equal(t, f, g)
}

func TestJSONErrors(t *testing.T) {
	f := testFile(t)
	js, err := json.Marshal(f)
	require.NoError(t, err)
	for name, edit := range map[string]func(m map[string]any){
		"magic":    func(m map[string]any) { m["magic"] = 1 },
		"checksum": func(m map[string]any) { m["checksum"] = 1 },
		"script":   func(m map[string]any) { m["script"] = "" },
		"flags": func(m map[string]any) {
			m["tokens"].([]any)[0].(map[string]any)["callflags"] = "Bogus"
		},
		"method": func(m map[string]any) {
			m["tokens"].([]any)[0].(map[string]any)["method"] = "_x"
		},
	} {
		var m map[string]any
		require.NoError(t, json.Unmarshal(js, &m))
		edit(m)
		bad, err := json.Marshal(m)
		require.NoError(t, err)
		var g File
		require.Error(t, json.Unmarshal(bad, &g), name)
	}
}

func FuzzFileFromBytes(f *testing.F) {
	for _, s := range []string{"n3d", ""} {
		nf, err := NewFile(s, s, []MethodToken{{Method: "m", CallFlag: callflag.ReadOnly}}, []byte{0x40})
		require.NoError(f, err)
		b, err := nf.Bytes()
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nf, err := FileFromBytes(data)
		if err != nil {
			return
		}
		b, err := nf.Bytes()
		require.NoError(t, err)
		g, err := FileFromBytes(b)
		require.NoError(t, err)
		require.Equal(t, nf, g)
		require.Equal(t, len(b), nf.Size())
	})
}
