package hwapi

import (
	"slices"
	"strings"
	"testing"
)

func FuzzDecodeFrame(f *testing.F) {
	f.Add(`{"seq":1,"weights":[{"r":0,"a":-1,"w":2.5},{"r":3,"a":17,"w":-1}]}`)
	f.Add(`{"seq":18446744073709551615,"weights":null}`)
	f.Add(`{"weights":[{"r":0,"a":0,"w":1e308}]}`)
	f.Add(`{"seq":1} x`)
	f.Fuzz(func(t *testing.T, s string) {
		fr, err := DecodeFrame(strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "frame: ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if len(fr.Weights) > MaxWeights {
			t.Fatal("too many weights")
		}
		for _, w := range fr.Weights {
			if w.R < 0 || w.R > MaxRUnit || w.A < -1 || w.A > MaxAUnit || w.W != w.W || w.W > 1e9 || w.W < -1e9 {
				t.Fatalf("accepted %+v", w)
			}
		}
	})
}

func FuzzDecodeDrive(f *testing.F) {
	f.Add(`{"r":0,"active":[1,2,3],"on_active":1,"on_inactive":-0.25}`)
	f.Add(`{"r":63,"active":[65535]}`)
	f.Add(`{"r":0,"active":[3,2]}`)
	f.Fuzz(func(t *testing.T, s string) {
		d, err := DecodeDrive(strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "drive: ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if d.R < 0 || d.R > MaxRUnit || !slices.IsSorted(d.Active) || len(slices.Compact(slices.Clone(d.Active))) != len(d.Active) {
			t.Fatalf("accepted %+v", d)
		}
		if _, err := DecodeSum(strings.NewReader(s)); err != nil && !strings.Contains(err.Error(), "unknown field") {
			t.Fatalf("a valid drive's r and active refused as a sum: %v", err)
		}
	})
}

func FuzzDecodeFault(f *testing.F) {
	f.Add(`{"bus":"main","addr":44,"kind":"nack","count":3}`)
	f.Add(`{"bus":"main","addr":-1,"kind":"timeout","prob":0.5}`)
	f.Fuzz(func(t *testing.T, s string) {
		fl, err := DecodeFault(strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if fl.Addr < -1 || fl.Addr > 0x7F || fl.Prob < 0 || fl.Prob >= 1 {
			t.Fatalf("accepted %+v", fl)
		}
	})
}
