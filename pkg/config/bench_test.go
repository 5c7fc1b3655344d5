package config

import (
	"testing"

	embedded "github.com/n3d-io/n3d/config"
)

func BenchmarkParseMainNet(b *testing.B) {
	for b.Loop() {
		if _, err := Parse(embedded.MainNet, ""); err != nil {
			b.Fatal(err)
		}
	}
}
