package hwapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Limits of the requests' contents.
const (
	MaxBody    = 1 << 20 // bytes of one request body
	MaxWeights = 4096    // weights in one frame
	MaxActive  = 65536   // active A-units in one sum or drive
	MaxRUnit   = 63
	MaxAUnit   = 65535
	MaxStep    = 1e6 // the largest correction step
)

// decode reads one JSON value into v: no unknown field, nothing after it, at most MaxBody
// bytes. Errors are one line, naming the request kind and the field.
func decode(r io.Reader, what string, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(data) > MaxBody {
		return fmt.Errorf("%s: larger than %d bytes", what, MaxBody)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %s", what, jsonError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: data after the JSON value", what)
	}
	return nil
}

// jsonError turns encoding/json's errors into one line naming the field.
func jsonError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the body"
		}
		return fmt.Sprintf("%s: want %s, got a JSON %s", field, te.Type, te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "empty or truncated body"
	}
	return strings.ReplaceAll(err.Error(), "json: ", "")
}

func checkWeight(i int, w Weight) error {
	switch {
	case w.R < 0 || w.R > MaxRUnit:
		return fmt.Errorf("weights[%d].r: %d out of range 0..%d", i, w.R, MaxRUnit)
	case w.A < -1 || w.A > MaxAUnit:
		return fmt.Errorf("weights[%d].a: %d out of range -1..%d (-1: the bias)", i, w.A, MaxAUnit)
	case math.IsNaN(w.W) || math.Abs(w.W) > 1e9:
		return fmt.Errorf("weights[%d].w: %g out of range", i, w.W)
	}
	return nil
}

// DecodeFrame reads and checks a Frame.
func DecodeFrame(r io.Reader) (Frame, error) {
	var f Frame
	if err := decode(r, "frame", &f); err != nil {
		return Frame{}, err
	}
	if len(f.Weights) > MaxWeights {
		return Frame{}, fmt.Errorf("frame: weights: %d, at most %d", len(f.Weights), MaxWeights)
	}
	for i, w := range f.Weights {
		if err := checkWeight(i, w); err != nil {
			return Frame{}, fmt.Errorf("frame: %w", err)
		}
	}
	return f, nil
}

func checkActive(what string, active []uint16) error {
	if len(active) > MaxActive {
		return fmt.Errorf("%s: active: %d A-units, at most %d", what, len(active), MaxActive)
	}
	for i := 1; i < len(active); i++ {
		if active[i] <= active[i-1] {
			return fmt.Errorf("%s: active[%d]: %d after %d: want ascending A-units, each once", what, i, active[i], active[i-1])
		}
	}
	return nil
}

func checkR(what string, r int) error {
	if r < 0 || r > MaxRUnit {
		return fmt.Errorf("%s: r: %d out of range 0..%d", what, r, MaxRUnit)
	}
	return nil
}

// DecodeSum reads and checks a SumRequest.
func DecodeSum(r io.Reader) (SumRequest, error) {
	var s SumRequest
	if err := decode(r, "sum", &s); err != nil {
		return SumRequest{}, err
	}
	if err := checkR("sum", s.R); err != nil {
		return SumRequest{}, err
	}
	if err := checkActive("sum", s.Active); err != nil {
		return SumRequest{}, err
	}
	return s, nil
}

// DecodeDrive reads and checks a DriveRequest.
func DecodeDrive(r io.Reader) (DriveRequest, error) {
	var d DriveRequest
	if err := decode(r, "drive", &d); err != nil {
		return DriveRequest{}, err
	}
	if err := checkR("drive", d.R); err != nil {
		return DriveRequest{}, err
	}
	if err := checkActive("drive", d.Active); err != nil {
		return DriveRequest{}, err
	}
	if math.Abs(d.OnActive) > MaxStep || math.Abs(d.OnInactive) > MaxStep {
		return DriveRequest{}, fmt.Errorf("drive: steps %g, %g: at most %g increments", d.OnActive, d.OnInactive, float64(MaxStep))
	}
	return d, nil
}

// DecodeFault reads and checks a Fault.
func DecodeFault(r io.Reader) (Fault, error) {
	var f Fault
	if err := decode(r, "fault", &f); err != nil {
		return Fault{}, err
	}
	switch {
	case f.Kind != "nack" && f.Kind != "timeout" && f.Kind != "stuck" && f.Kind != "clear":
		return Fault{}, fmt.Errorf("fault: kind: %q: want nack, timeout, stuck or clear", f.Kind)
	case f.Addr < -1 || f.Addr > 0x7F:
		return Fault{}, fmt.Errorf("fault: addr: %d: want a 7-bit address, or -1 for all", f.Addr)
	case f.Count < 0 || f.Count > 1e6:
		return Fault{}, fmt.Errorf("fault: count: %d out of range", f.Count)
	case !(f.Prob >= 0 && f.Prob < 1):
		return Fault{}, fmt.Errorf("fault: prob: %g: want 0 (always) or below 1", f.Prob)
	}
	return f, nil
}
