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
		fr, err := decodeFrame(strings.NewReader(s))
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
		d, err := decodeDrive(strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "drive: ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if d.R < 0 || d.R > MaxRUnit || !slices.IsSorted(d.Active) || len(slices.Compact(slices.Clone(d.Active))) != len(d.Active) {
			t.Fatalf("accepted %+v", d)
		}
		if _, err := decodeSum(strings.NewReader(s)); err != nil && !strings.Contains(err.Error(), "unknown field") {
			t.Fatalf("a valid drive's r and active refused as a sum: %v", err)
		}
	})
}

func FuzzDecodeFault(f *testing.F) {
	f.Add(`{"bus":"main","addr":44,"kind":"nack","count":3}`)
	f.Add(`{"bus":"main","addr":-1,"kind":"timeout","prob":0.5}`)
	f.Fuzz(func(t *testing.T, s string) {
		fl, err := decodeFault(strings.NewReader(s))
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

// FuzzDecodeReplies feeds a bridge's replies, as a hostile or broken bridge could send them,
// to the client's decoders: never a panic, every error one line, and what is accepted is
// usable (a loop rig has its machine and a pot for every weight; numbers are finite).
func FuzzDecodeReplies(f *testing.F) {
	f.Add(`{"version":1,"boot":"b","mode":"loop","update_hz":20,"watchdog_s":2,"tolerance":0.5,"pots":[{"r":0,"a":-1,"range":32,"step":0.25},{"r":0,"a":0,"range":32}],"machine":{"a_units":1,"r_units":1,"rule":"alpha","wiring":"random"}}`)
	f.Add(`{"version":1,"boot":"b","mode":"loop","update_hz":20,"pots":[]}`)
	f.Add(`{"version":1,"boot":"b","mode":"mirror","update_hz":1e400,"pots":[{"r":0,"a":0,"range":32}]}`)
	f.Add(`{"mode":"mirror","held":false,"watchdog":"armed","generation":3,"pots":[{"weight":"R0.A0","r":0,"a":0,"target":1,"position":0.5,"reading":1}]}`)
	f.Add(`{"seq":7,"applied":2,"generation":1,"resumed":"yes"}`)
	f.Add(`{"sum":-1.5,"error":"pot R0.A1: NACK"}`)
	f.Add(`{"r":0,"w":[1,2,3]}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(s)
		oneLine := func(err error) {
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
		}
		if info, err := decodeInfo(data); err == nil {
			if info.Mode == "loop" {
				if info.Machine == nil || info.Machine.AUnits < 1 || info.Machine.RUnits < 1 {
					t.Fatalf("a loop rig accepted without its machine: %+v", info)
				}
				if _, err := (&Client{}).Racks(info); err != nil {
					t.Fatalf("Racks of an accepted loop rig: %v", err)
				}
			} else if info.Mode != "mirror" {
				t.Fatalf("mode %q accepted", info.Mode)
			}
			if !(info.UpdateHz > 0) || info.Period() <= 0 {
				t.Fatalf("update_hz %v accepted", info.UpdateHz)
			}
		} else {
			oneLine(err)
		}
		if st, err := decodeStatus(data); err == nil {
			for _, p := range st.Pots {
				if !finite(p.Reading) || !finite(p.Target) {
					t.Fatalf("pot %+v accepted", p)
				}
			}
		} else {
			oneLine(err)
		}
		fr := Frame{Seq: 7, Weights: make([]Weight, 2)}
		if rep, err := decodeFrameReply(data, fr); err == nil {
			if rep.Seq != 7 || rep.Applied < 0 || rep.Applied > 2 {
				t.Fatalf("frame reply %+v accepted", rep)
			}
		} else {
			oneLine(err)
		}
		if rep, err := decodeSumReply(data); err == nil {
			if !finite(rep.Sum) {
				t.Fatalf("sum %v accepted", rep.Sum)
			}
		} else {
			oneLine(err)
		}
		if rep, err := decodeReadings(data, 0, 3); err == nil {
			if len(rep.W) != 3 {
				t.Fatalf("readings %+v accepted", rep)
			}
		} else {
			oneLine(err)
		}
		_, err := decodeAck(data, "heartbeat")
		oneLine(err)
		_, err = decodeDriveReply(data)
		oneLine(err)
	})
}
