package neojson

import (
	"strings"
	"testing"
)

var benchDoc = []byte(`{"name":"NameService","groups":[],"features":{},"supportedstandards":["NEP-11","NEP-22"],` +
	`"abi":{"methods":[` + strings.Repeat(`{"name":"balanceOf","parameters":[{"name":"owner","type":"Hash160"}],`+
	`"returntype":"Integer","offset":1290,"safe":true},`, 40) +
	`{"name":"x","parameters":[],"returntype":"Void","offset":0,"safe":false}],"events":[]},` +
	`"permissions":[{"contract":"*","methods":"*"}],"trusts":[],"extra":{"Author":"n3d","Version":1.5}}`)

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchDoc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(benchDoc, DefaultMaxDepth); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	v, err := Parse(benchDoc, DefaultMaxDepth)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, len(benchDoc)*2)
	b.SetBytes(int64(len(benchDoc)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = Append(buf[:0], v); err != nil {
			b.Fatal(err)
		}
	}
}
