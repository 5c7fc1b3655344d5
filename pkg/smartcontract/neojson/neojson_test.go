package neojson

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The accepted/rejected texts and the expected outputs below are those the
// reference's own JSON tests assert (Neo.Json and JsonSerializer tests),
// plus the escaping seen in the reference's recorded RPC answers
// ("\u002B" for '+').

func roundTrip(t *testing.T, in string) string {
	t.Helper()
	v, err := Parse([]byte(in), DefaultMaxDepth)
	require.NoError(t, err, in)
	out, err := Marshal(v)
	require.NoError(t, err)
	return string(out)
}

func TestParseWriteReference(t *testing.T) {
	for in, want := range map[string]string{
		`[    ]`:                    `[]`,
		`[1,"a==",    -1.3 ,null] `: `[1,"a==",-1.3,null]`,
		`[  true ,false ]`:          `[true,false]`,
		`[  1, -2 , 3.5 ]`:          `[1,-2,3.5]`,
		`[200.500000E+005,200.500000e+5,-1.1234e-100,9.05E+28]`: `[20050000,20050000,-1.1234E-100,9.05E+28]`,
		` [""  ,  "\b\f\t\n\r\/\\" ]`:                           `["","\b\f\t\n\r/\\"]`,
		`["\uD834\uDD1E"]`:                                      `["\uD834\uDD1E"]`,
		`["\\x00"]`:                                             `["\\x00"]`,
		` {"test":   true}`:                                     `{"test":true}`,
		` {"\uAAAA":   true}`:                                   `{"\uAAAA":true}`,
		`{"k1":"v1"}`:                                           `{"k1":"v1"}`,
		`"\u0030"`:                                              `"0"`,
		`"A simple \u0060hello\u0060"`:                          `"A simple \u0060hello\u0060"`,
		`"a+b"`:                                                 `"a\u002Bb"`,
	} {
		require.Equal(t, want, roundTrip(t, in), in)
	}
}

func TestParseRejectsReference(t *testing.T) {
	for _, in := range []string{
		"[    ]XXXXXXX", "{   }XXXXXXX", "[,,,,]", "false,X", "false@@@",
		`{"length":` + strings.Repeat("9", 974) + `}`,
		"[True,FALSE] ", "[-]", "[1.]", "[.123]", "[--1.123]", "[+1.123]",
		"[1.12.3]", "[e--1]", "[e++1]", "[E- 1]", "[3e--1]", "[2e++1]", "[1E- 1]",
		`["]`, `["\uaaa"]`, `["\uaa"]`, `["\ua"]`, `["\u"]`,
		`{"a":}`, `{NULL}`, `["a":]`,
		`{"color":"red","\uDBFF\u0DFFF":"#f00"}`, `{"color":"\uDBFF\u0DFFF"}`,
		`"\uDBFF\u0DFFF"`, "", "  ", "x",
	} {
		_, err := Parse([]byte(in), DefaultMaxDepth)
		require.Error(t, err, in)
	}
}

func TestParseDialect(t *testing.T) {
	ok := []string{
		"/* c */ {\"a\" : /* c */ 1 /* c */ , // line\n \"b\":[ /*x*/ 2 , 3 /*y*/ ] } // end",
		"[1]\r\n", "{\"a\":{\"b\":{}}}", "[-0]", "[1e-400]", `"\u0000"`,
	}
	for _, in := range ok {
		_, err := Parse([]byte(in), DefaultMaxDepth)
		require.NoError(t, err, in)
	}
	bad := map[string]error{
		`{"a":1,"a":2}`:      ErrDuplicateKey,
		"{\"a\" /* c */ :1}": ErrSyntax,
		"[1,]":               ErrSyntax,
		"{\"a\":1,}":         ErrSyntax,
		"[1] /* open":        ErrSyntax,
		"[1] // \u2028 x":    ErrSyntax,
		"[\"\xff\"]":         ErrInvalidUTF8,
		"[\"\xed\xa0\x80\"]": ErrInvalidUTF8,
		`["\uDC00"]`:         ErrInvalidUTF8,
		"[\"a\x01\"]":        ErrSyntax,
		"\xef\xbb\xbf[]":     ErrSyntax,
		"[01]":               ErrSyntax,
		"[1e400]":            ErrNumberRange,
		`["\x"]`:             ErrSyntax,
		"[nul]":              ErrSyntax,
		"[truex]":            ErrSyntax,
		"[1]" + "[2]":        ErrSyntax,
		"{\"a\":1" + "}}":    ErrSyntax,
		strings.Repeat("[", 65) + strings.Repeat("]", 65): ErrDepth,
	}
	for in, want := range bad {
		_, err := Parse([]byte(in), DefaultMaxDepth)
		require.ErrorIs(t, err, want, "%q", in)
	}
	deep := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	_, err := Parse([]byte(deep), DefaultMaxDepth)
	require.NoError(t, err)
}

func TestParseDuplicateKeyLargeObject(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("{")
	for i := range 20 {
		sb.WriteString(`"k` + string(rune('a'+i)) + `":1,`)
	}
	sb.WriteString(`"kc":2}`)
	_, err := Parse([]byte(sb.String()), DefaultMaxDepth)
	require.ErrorIs(t, err, ErrDuplicateKey)
}

func TestObjectOrderKept(t *testing.T) {
	in := `{"z":1,"a":{"y":null,"b":[true,"x"]},"m":"é"}`
	v, err := Parse([]byte(in), DefaultMaxDepth)
	require.NoError(t, err)
	o := v.(*Object)
	require.Equal(t, 3, o.Len())
	require.Equal(t, []string{"z", "a", "m"}, []string{o.Members[0].Key, o.Members[1].Key, o.Members[2].Key})
	got, ok := o.Get("m")
	require.True(t, ok)
	require.Equal(t, "é", got)
	_, ok = o.Get("nope")
	require.False(t, ok)
	out, err := Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `{"z":1,"a":{"y":null,"b":[true,"x"]},"m":"\u00E9"}`, string(out))
}

func TestAppendStringEscapes(t *testing.T) {
	// Every ASCII character the reference writes as an escape.
	for c, want := range map[byte]string{
		'"': `\u0022`, '&': `\u0026`, '\'': `\u0027`, '+': `\u002B`, '<': `\u003C`,
		'>': `\u003E`, '`': `\u0060`, '\\': `\\`, '\b': `\b`, '\t': `\t`, '\n': `\n`,
		'\f': `\f`, '\r': `\r`, 0: `\u0000`, 0x1f: `\u001F`, 0x7f: `\u007F`,
	} {
		require.Equal(t, `"`+want+`"`, string(AppendString(nil, string([]byte{c}))), "%q", c)
	}
	require.Equal(t, `" !#$%()*,-./09:;=?@AZ[]^_az{|}~"`, string(AppendString(nil, ` !#$%()*,-./09:;=?@AZ[]^_az{|}~`)))
	require.Equal(t, `"\u20AC\uD83D\uDE00"`, string(AppendString(nil, "€😀")))
	require.Equal(t, `"\uFFFD"`, string(AppendString(nil, "\xff")))
}

func TestAppendNumber(t *testing.T) {
	for f, want := range map[float64]string{
		20050000: "20050000", -1.1234e-100: "-1.1234E-100", 9.05e28: "9.05E+28",
		-1.3: "-1.3", 3.5: "3.5", 0: "0", 1e14: "100000000000000", 1e15: "1E+15",
		123456789012345: "123456789012345", 1234567890123456: "1234567890123456",
		12345678901234567: "12345678901234568", 1.2345678901234567e19: "1.2345678901234567E+19",
		0.0001: "0.0001", 0.00001: "1E-05", 0.00012: "0.00012", 1.5e-7: "1.5E-07",
		4294967295: "4294967295", 1.7976931348623157e308: "1.7976931348623157E+308",
		5e-324: "5E-324", 123.456: "123.456", 1e21: "1E+21",
	} {
		require.Equal(t, want, string(AppendNumber(nil, f)), "%v", f)
	}
	negZero, err := Parse([]byte("-0"), 1)
	require.NoError(t, err)
	require.Equal(t, "-0", string(AppendNumber(nil, negZero.(float64))))
}

func TestAppendUnsupported(t *testing.T) {
	_, err := Marshal(42)
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = Marshal([]any{map[string]any{}})
	require.ErrorIs(t, err, ErrUnsupported)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x\u00e9",null,true,{"b":false}]}`, "[1] // c", "/**/{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, DefaultMaxDepth)
		if err != nil {
			return
		}
		out, err := Marshal(v)
		require.NoError(t, err)
		require.True(t, json.Valid(out), "%q", out)
		v2, err := Parse(out, DefaultMaxDepth)
		require.NoError(t, err)
		out2, err := Marshal(v2)
		require.NoError(t, err)
		require.Equal(t, out, out2)
	})
}
