package hwapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
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
		return fmt.Sprintf("%s: want %s, got a JSON %s", field, jsonKind(te.Type), te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "empty or truncated body"
	}
	return strings.ReplaceAll(err.Error(), "json: ", "")
}

// need returns an error naming a field a request must have.
func need(what, field, want string) error {
	return fmt.Errorf("%s: %s: missing: want %s", what, field, want)
}

// weightIn is a Weight as read: every field must be present.
type weightIn struct {
	R *int     `json:"r"`
	A *int     `json:"a"`
	W *float64 `json:"w"`
}

// jsonKind names what a Go type reads from JSON: "an object", "a list", "an integer 0..65535".
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return fmt.Sprintf("an integer 0..%d", uint64(1)<<(t.Bits()-1)*2-1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return "an integer"
	}
	return t.String()
}

func checkWeight(i int, in *weightIn) (Weight, error) {
	field := func(f string) string { return fmt.Sprintf("weights[%d]%s", i, f) }
	switch {
	case in == nil:
		return Weight{}, fmt.Errorf("%s: null: want {\"r\": R, \"a\": A, \"w\": W}", field(""))
	case in.R == nil:
		return Weight{}, fmt.Errorf("%s: missing: want the R-unit 0..%d", field(".r"), MaxRUnit)
	case in.A == nil:
		return Weight{}, fmt.Errorf("%s: missing: want the A-unit -1..%d (-1: the bias)", field(".a"), MaxAUnit)
	case in.W == nil:
		return Weight{}, fmt.Errorf("%s: missing: want the weight in increments", field(".w"))
	}
	w := Weight{R: *in.R, A: *in.A, W: *in.W}
	switch {
	case w.R < 0 || w.R > MaxRUnit:
		return Weight{}, fmt.Errorf("%s: %d out of range 0..%d", field(".r"), w.R, MaxRUnit)
	case w.A < -1 || w.A > MaxAUnit:
		return Weight{}, fmt.Errorf("%s: %d out of range -1..%d (-1: the bias)", field(".a"), w.A, MaxAUnit)
	case math.IsNaN(w.W) || math.Abs(w.W) > 1e9:
		return Weight{}, fmt.Errorf("%s: %g out of range", field(".w"), w.W)
	}
	return w, nil
}

// decodeFrame reads and checks a Frame: "seq" and "weights" (a list, perhaps empty) must be
// there, and every weight's "r", "a" and "w".
func decodeFrame(r io.Reader) (Frame, error) {
	var in *struct {
		Seq     *uint64      `json:"seq"`
		Weights *[]*weightIn `json:"weights"`
	}
	if err := decode(r, "frame", &in); err != nil {
		return Frame{}, err
	}
	switch {
	case in == nil:
		return Frame{}, errors.New(`frame: the body is null: want {"seq": N, "weights": [...]}`)
	case in.Seq == nil:
		return Frame{}, need("frame", "seq", "the frame's number")
	case in.Weights == nil || *in.Weights == nil:
		return Frame{}, need("frame", "weights", `a list of {"r", "a", "w"} (perhaps empty)`)
	case len(*in.Weights) > MaxWeights:
		return Frame{}, fmt.Errorf("frame: weights: %d, at most %d", len(*in.Weights), MaxWeights)
	}
	f := Frame{Seq: *in.Seq, Weights: make([]Weight, len(*in.Weights))}
	for i, w := range *in.Weights {
		var err error
		if f.Weights[i], err = checkWeight(i, w); err != nil {
			return Frame{}, fmt.Errorf("frame: %w", err)
		}
	}
	return f, nil
}

// activeOf checks a request's "active" list: present, A-units (no null), ascending, each once.
func activeOf(what string, in *[]*int) ([]uint16, error) {
	if in == nil || *in == nil {
		return nil, need(what, "active", "the active A-units, ascending (perhaps [])")
	}
	if len(*in) > MaxActive {
		return nil, fmt.Errorf("%s: active: %d A-units, at most %d", what, len(*in), MaxActive)
	}
	out := make([]uint16, len(*in))
	for i, a := range *in {
		switch {
		case a == nil:
			return nil, fmt.Errorf("%s: active[%d]: null: want an A-unit 0..%d", what, i, MaxAUnit)
		case *a < 0 || *a > MaxAUnit:
			return nil, fmt.Errorf("%s: active[%d]: %d out of range 0..%d", what, i, *a, MaxAUnit)
		case i > 0 && *a <= int(out[i-1]):
			return nil, fmt.Errorf("%s: active[%d]: %d after %d: want ascending A-units, each once", what, i, *a, out[i-1])
		}
		out[i] = uint16(*a)
	}
	return out, nil
}

func checkR(what string, r *int) (int, error) {
	if r == nil {
		return 0, need(what, "r", fmt.Sprintf("the R-unit 0..%d", MaxRUnit))
	}
	if *r < 0 || *r > MaxRUnit {
		return 0, fmt.Errorf("%s: r: %d out of range 0..%d", what, *r, MaxRUnit)
	}
	return *r, nil
}

// decodeSum reads and checks a SumRequest: "r" and "active" must be there.
func decodeSum(r io.Reader) (SumRequest, error) {
	var in *struct {
		R      *int    `json:"r"`
		Active *[]*int `json:"active"`
	}
	if err := decode(r, "sum", &in); err != nil {
		return SumRequest{}, err
	}
	if in == nil {
		return SumRequest{}, errors.New(`sum: the body is null: want {"r": R, "active": [...]}`)
	}
	var s SumRequest
	var err error
	if s.R, err = checkR("sum", in.R); err != nil {
		return SumRequest{}, err
	}
	if s.Active, err = activeOf("sum", in.Active); err != nil {
		return SumRequest{}, err
	}
	return s, nil
}

// decodeDrive reads and checks a DriveRequest: "r", "active", "on_active" and "on_inactive"
// must be there.
func decodeDrive(r io.Reader) (DriveRequest, error) {
	var in *struct {
		R          *int     `json:"r"`
		Active     *[]*int  `json:"active"`
		OnActive   *float64 `json:"on_active"`
		OnInactive *float64 `json:"on_inactive"`
	}
	if err := decode(r, "drive", &in); err != nil {
		return DriveRequest{}, err
	}
	if in == nil {
		return DriveRequest{}, errors.New(`drive: the body is null: want {"r", "active", "on_active", "on_inactive"}`)
	}
	var d DriveRequest
	var err error
	if d.R, err = checkR("drive", in.R); err != nil {
		return DriveRequest{}, err
	}
	if d.Active, err = activeOf("drive", in.Active); err != nil {
		return DriveRequest{}, err
	}
	switch {
	case in.OnActive == nil:
		return DriveRequest{}, need("drive", "on_active", "the step of the bias and the active A-units' pots, increments")
	case in.OnInactive == nil:
		return DriveRequest{}, need("drive", "on_inactive", "the step of the other pots, increments (often 0)")
	}
	d.OnActive, d.OnInactive = *in.OnActive, *in.OnInactive
	if math.Abs(d.OnActive) > MaxStep || math.Abs(d.OnInactive) > MaxStep {
		return DriveRequest{}, fmt.Errorf("drive: steps %g, %g: at most %g increments", d.OnActive, d.OnInactive, float64(MaxStep))
	}
	return d, nil
}

// decodeFault reads and checks a Fault: "bus", "addr" and "kind" must be there.
func decodeFault(r io.Reader) (Fault, error) {
	var in *struct {
		Bus   *string  `json:"bus"`
		Addr  *int     `json:"addr"`
		Kind  *string  `json:"kind"`
		Count *int     `json:"count"`
		Prob  *float64 `json:"prob"`
	}
	if err := decode(r, "fault", &in); err != nil {
		return Fault{}, err
	}
	switch {
	case in == nil:
		return Fault{}, errors.New(`fault: the body is null: want {"bus", "addr", "kind"}`)
	case in.Bus == nil:
		return Fault{}, need("fault", "bus", "the rig's bus name")
	case in.Addr == nil:
		return Fault{}, need("fault", "addr", "a 7-bit address, or -1 for all")
	case in.Kind == nil:
		return Fault{}, need("fault", "kind", "nack, timeout, stuck or clear")
	}
	f := Fault{Bus: *in.Bus, Addr: *in.Addr, Kind: *in.Kind}
	if in.Count != nil {
		f.Count = *in.Count
	}
	if in.Prob != nil {
		f.Prob = *in.Prob
	}
	switch {
	case f.Kind != "nack" && f.Kind != "timeout" && f.Kind != "stuck" && f.Kind != "clear":
		return Fault{}, fmt.Errorf("fault: kind: %q: want nack, timeout, stuck or clear", f.Kind)
	case f.Addr < -1 || f.Addr > 0x7F:
		return Fault{}, fmt.Errorf("fault: addr: %d: want a 7-bit address, or -1 for all", f.Addr)
	case f.Count < 0 || f.Count > 1e6:
		return Fault{}, fmt.Errorf("fault: count: %d out of range 0..1000000", f.Count)
	case !(f.Prob >= 0 && f.Prob < 1):
		return Fault{}, fmt.Errorf("fault: prob: %g: want 0 (always) or below 1", f.Prob)
	}
	return f, nil
}

// decodeEmpty reads the body of a request that carries nothing: empty, or {}.
func decodeEmpty(r io.Reader, what string) error {
	data, err := io.ReadAll(io.LimitReader(r, 1024))
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	var in *struct{}
	if err := decode(bytes.NewReader(data), what, &in); err != nil {
		return err
	}
	if in == nil {
		return fmt.Errorf("%s: the body is null: want {} or nothing", what)
	}
	return nil
}
