package main

import "testing"

func TestGCDefaultsRespectGOGC(t *testing.T) {
	for _, tc := range []struct {
		gogc string
		want int // -1: nothing set
	}{
		{"", defaultGCPercent},
		{"100", -1},
		{"off", -1},
	} {
		set := -1
		got := applyGCDefaults(func(k string) string {
			if k == "GOGC" {
				return tc.gogc
			}
			return ""
		}, func(p int) int { set = p; return 100 })
		if got != tc.want || set != tc.want {
			t.Errorf("GOGC=%q: returned %d, set %d; want %d", tc.gogc, got, set, tc.want)
		}
	}
}
