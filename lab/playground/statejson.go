package playground

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// StateJSON returns the JSON of State, written without reflection for its long lists (the
// points, the trace's rows, the history, the path, the half-planes, the line, the regions) and
// with the parts that do not change between steps kept written: what a browser asks for after
// every step. It is the same JSON value as json.Marshal(s.State()) (TestStateJSON).
func (s *Session) StateJSON() []byte {
	st := s.State()
	b := make([]byte, 0, max(s.lastJSON+s.lastJSON/8, 4<<10))
	defer func() { s.lastJSON = len(b) }()
	b = append(b, '{')
	first := true
	key := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
	}
	small := func(k string, v any) {
		key(k)
		j, err := json.Marshal(v)
		if err != nil {
			j = []byte("null")
		}
		b = append(b, j...)
	}
	// The parts of the weights' version are written once (a step that meets its sample leaves
	// them as they were).
	var wc *weightsCache
	if s.set.k == 2 {
		wc = s.byWeights()
	}
	cached := func(seg *[]byte, write func([]byte) []byte) {
		if wc == nil {
			b = write(b)
			return
		}
		if *seg == nil {
			*seg = write(nil)
		}
		b = append(b, *seg...)
	}
	key("points")
	cached(wcSeg(wc, 0), func(b []byte) []byte { return s.appendPoints(b, st.Points) })
	small("classes", st.Classes)
	small("method", st.Method)
	small("multiclass", st.Multiclass)
	small("bias", st.Bias)
	small("w", st.W)
	small("boundary", st.Boundary)
	small("units", st.Units)
	key("trace")
	if st.Trace == nil {
		b = append(b, "null"...)
	} else {
		b = s.appendTrace(b, st.Trace)
	}
	small("epochs", st.Epochs)
	small("updates", st.Updates)
	small("step", st.Step)
	small("epoch", st.Epoch)
	small("status", st.Status)
	small("errors", st.Errors)
	small("criteria", st.Criteria)
	key("history")
	b = s.appendHistory(b, st.History, st.HistoryStride)
	small("historyStride", st.HistoryStride)
	key("line")
	cached(wcSeg(wc, 1), func(b []byte) []byte { return appendLine(b, st.Line) })
	key("weightSpace")
	cached(wcSeg(wc, 2), func(b []byte) []byte { return s.appendWeightSpace(b, st.WeightSpace) })
	small("novikoff", st.Novikoff)
	small("pocket", st.Pocket)
	key("regions")
	b = appendRegions(b, st)
	small("command", st.Command)
	if st.CommandNote != "" {
		small("commandNote", st.CommandNote)
	}
	small("config", st.Config)
	return append(b, '}')
}

// wcSeg returns the cache's i-th written part: the points, the line, the weight space.
func wcSeg(wc *weightsCache, i int) *[]byte {
	if wc == nil {
		return nil
	}
	return [...]*[]byte{&wc.pointsJSON, &wc.lineJSON, &wc.wsJSON}[i]
}

// appendFloat writes f as JSON (null when not finite).
func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// appendFloat32 writes f rounded to a float32, the shortest that reads back as it (7 digits:
// what a chart or a tooltip shows, written three times as fast).
func appendFloat32(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > math.MaxFloat32 {
		return appendFloat(b, f)
	}
	return strconv.AppendFloat(b, float64(float32(f)), 'g', -1, 32)
}

// appendString writes s as a JSON string.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			j, _ := json.Marshal(s)
			return append(b, j...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendStrings(b []byte, v []string) []byte {
	b = append(b, '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendFloats(b []byte, v []float64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, f := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, f)
	}
	return append(b, ']')
}

func appendFloats32(b []byte, v []float64) []byte {
	b = append(b, '[')
	for i, f := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat32(b, f)
	}
	return append(b, ']')
}

func appendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// appendPoints writes the points, each one's place and label as written at the run's start.
func (s *Session) appendPoints(b []byte, pts []PointState) []byte {
	if len(s.pointJSON) != len(pts) {
		s.pointJSON = s.pointJSON[:0]
		for _, p := range pts {
			var q []byte
			q = append(q, `{"x":[`...)
			q = appendFloat(q, p.X[0])
			q = append(q, ',')
			q = appendFloat(q, p.X[1])
			q = append(q, `],"exact":`...)
			q = appendStrings(q, p.Exact[:])
			q = append(q, `,"label":`...)
			q = strconv.AppendInt(q, int64(p.Label), 10)
			s.pointJSON = append(s.pointJSON, q)
		}
	}
	b = append(b, '[')
	for i, p := range pts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, s.pointJSON[i]...)
		b = append(b, `,"g":`...)
		b = appendFloat32(b, p.G)
		b = append(b, `,"dist":`...)
		b = appendFloat32(b, p.Dist)
		b = append(b, `,"met":`...)
		b = appendBool(b, p.Met)
		b = append(b, `,"answer":`...)
		b = strconv.AppendInt(b, int64(p.Answer), 10)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendTrace writes the trace, each row as written when it was made.
func (s *Session) appendTrace(b []byte, t *TraceState) []byte {
	for len(s.rowJSON) < len(s.rows) {
		s.rowJSON = append(s.rowJSON, appendStrings(nil, s.rows[len(s.rowJSON)]))
	}
	b = append(b, `{"columns":`...)
	b = appendStrings(b, t.Columns)
	b = append(b, `,"rows":[`...)
	for i := range t.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, s.rowJSON[t.First+i]...)
	}
	b = append(b, `],"first":`...)
	b = strconv.AppendInt(b, int64(t.First), 10)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(t.Total), 10)
	b = append(b, `,"epochColumns":`...)
	b = appendStrings(b, t.EpochColumns)
	b = append(b, `,"epochRows":[`...)
	for i, r := range t.EpochRows {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStrings(b, r)
	}
	return append(b, "]}"...)
}

// appendHistory writes the history, each point as written when it was made (all written again
// when the history has thinned).
func (s *Session) appendHistory(b []byte, h []HistoryPoint, stride int) []byte {
	if stride != s.histStride || len(s.histJSON) > len(h) {
		s.histJSON, s.histStride = s.histJSON[:0], stride
	}
	for len(s.histJSON) < len(h) {
		p := h[len(s.histJSON)]
		q := append([]byte(nil), `{"step":`...)
		q = strconv.AppendInt(q, int64(p.Step), 10)
		q = append(q, `,"zeroOne":`...)
		q = strconv.AppendInt(q, int64(p.ZeroOne), 10)
		q = append(q, `,"EP":`...)
		q = appendFloat(q, p.EP)
		q = append(q, `,"EQ":`...)
		q = appendFloat(q, p.EQ)
		q = append(q, `,"ER":`...)
		q = appendFloat(q, p.ER)
		s.histJSON = append(s.histJSON, append(q, '}'))
	}
	b = append(b, '[')
	for i, q := range s.histJSON {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, q...)
	}
	return append(b, ']')
}

func appendLine(b []byte, l *Line) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"from":`...)
	b = appendFloats(b, l.From)
	b = append(b, `,"to":`...)
	b = appendFloats(b, l.To)
	b = append(b, `,"along":`...)
	b = appendString(b, l.Along)
	b = append(b, `,"ts":`...)
	b = appendFloats(b, l.Ts)
	b = append(b, `,"zeroOne":[`...)
	for i, n := range l.ZeroOne {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, `],"EP":`...)
	b = appendFloats32(b, l.EP)
	b = append(b, `,"EQ":`...)
	b = appendFloats32(b, l.EQ)
	b = append(b, `,"ER":`...)
	b = appendFloats32(b, l.ER)
	return append(b, '}')
}

// appendWeightSpace writes the weight space: each half-plane's a and b as written at the run's
// start (c takes two values, one per label), the path's points as written when made.
func (s *Session) appendWeightSpace(b []byte, w *WeightSpace) []byte {
	if w == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"w0":`...)
	b = appendFloat(b, w.W0)
	b = append(b, `,"w":`...)
	b = appendFloats(b, w.W[:])
	b = append(b, `,"halfPlanes":[`...)
	if len(s.planeJSON) != len(w.HalfPlanes) {
		s.planeJSON = s.planeJSON[:0]
		for _, h := range w.HalfPlanes {
			q := append([]byte(nil), `{"a":`...)
			q = appendFloat(q, h.A)
			q = append(q, `,"b":`...)
			q = appendFloat(q, h.B)
			s.planeJSON = append(s.planeJSON, append(q, `,"c":`...))
		}
	}
	var cs [2][]byte // c for the labels +1 and -1
	for i, h := range w.HalfPlanes {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, s.planeJSON[i]...)
		k := 0
		if s.set.points[i].y < 0 {
			k = 1
		}
		if cs[k] == nil {
			cs[k] = appendFloat(nil, h.C)
		}
		b = append(b, cs[k]...)
		b = append(b, '}')
	}
	b = append(b, `],"path":[`...)
	if len(s.pathJSON) > len(w.Path) {
		s.pathJSON = s.pathJSON[:0]
	}
	for len(s.pathJSON) < len(w.Path) {
		s.pathJSON = append(s.pathJSON, appendFloats(nil, w.Path[len(s.pathJSON)][:]))
	}
	for i, q := range s.pathJSON {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, q...)
	}
	return append(b, "]}"...)
}

func appendRegions(b []byte, st *State) []byte {
	r := st.Regions
	if r == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"cols":`...)
	b = strconv.AppendInt(b, int64(r.Cols), 10)
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(r.Rows), 10)
	for _, f := range []struct {
		k string
		v float64
	}{{"xmin", r.XMin}, {"xmax", r.XMax}, {"ymin", r.YMin}, {"ymax", r.YMax}} {
		b = append(b, `,"`+f.k+`":`...)
		b = appendFloat(b, f.v)
	}
	b = append(b, `,"class":[`...)
	for i, c := range r.Class {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(c), 10)
	}
	b = append(b, `],"grey":`...)
	b = strconv.AppendInt(b, int64(r.Grey), 10)
	b = append(b, `,"names":`...)
	if r.Names == nil {
		b = append(b, "null"...)
	} else {
		b = appendStrings(b, r.Names)
	}
	return append(b, '}')
}
