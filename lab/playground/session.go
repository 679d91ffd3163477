package playground

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// Session is a 2-D playground: points of two classes (or K), a method, and the run so far.
// Its methods change it and State reads it; a session is not safe for use by several
// goroutines at once.
type Session struct {
	set settings

	// Two classes.
	data      *trace.Data
	smp       *samples
	st        *trace.Stepper // the perceptron's rules
	rowWriter *trace.Rows
	w         exact.Vec  // the current weights (the stepper's own, or the closed form's)
	rows      [][]string // the trace's rows so far
	epochs    []trace.EpochEnd
	hist      history
	path      [][2]float64 // (w1, w2) at the start and after each update
	pathN     int          // updates the path has thinned over (see addPath)

	// K classes.
	ld    *learn.Data
	it    *learn.Iterative
	multi *learn.Multi
	kErr  int // training samples the K-class classifier answers wrongly or not at all

	steps  int // presentations (K classes: epochs; closed forms: solutions) since the start
	status string

	nov     *novikoffCache
	static  []PointState // the points' places, exact and as floats, and labels
	cmd     [2]string    // the command and why there is none
	cfgView SessionConfig

	// StateJSON's writing kept: each point's place and label, each row of the trace, each
	// point of the history and of the path, each half-plane's a and b.
	pointJSON, rowJSON, histJSON, pathJSON, planeJSON [][]byte
	histStride                                        int

	// wVersion counts the changes of the weights (and of the points); wc is what the state
	// computed of the weights of version wc.version.
	wVersion int
	wc       *weightsCache
	lastJSON int // the length of the last StateJSON, to make room for the next
}

// Statuses of a session's run.
const (
	Running   = "running"
	Converged = "converged"
	Cycled    = "cycled"
	Limit     = "limit"
	Solved    = "solved"
)

// NewSession returns a session set up by c, at its start.
func NewSession(c SessionConfig) (*Session, error) {
	set, err := readSettings(c)
	if err != nil {
		return nil, err
	}
	s := &Session{set: set}
	if err := s.reset(); err != nil {
		return nil, err
	}
	return s, nil
}

// Config returns the session's set-up, its points as they are now.
func (s *Session) Config() SessionConfig {
	c := s.set.cfg
	c.Points = nil
	for i, p := range s.set.points {
		e := s.static[i].Exact
		c.Points = append(c.Points, []Num{Num(e[0]), Num(e[1]), Num(s.labelText(p.y))})
	}
	if c.Points == nil {
		c.Points = [][]Num{}
	}
	return c
}

func (s *Session) labelText(y int) string {
	if s.set.k == 2 {
		return fmt.Sprintf("%+d", y)
	}
	return strconv.Itoa(y)
}

// Set changes the set-up: the fields of c's JSON that are given replace the session's (points
// too, when given), and the run starts again.
func (s *Session) Set(configJSON []byte) error {
	c := s.Config()
	if err := json.Unmarshal(configJSON, &c); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	set, err := readSettings(c)
	if err != nil {
		return err
	}
	old := s.set
	s.set = set
	if err := s.reset(); err != nil {
		s.set = old
		_ = s.reset()
		return err
	}
	return nil
}

// reset starts the run again from the initial weights, on the points as they are.
func (s *Session) reset() error {
	s.st, s.rows, s.epochs, s.path, s.pathN = nil, nil, nil, nil, 0
	s.it, s.multi, s.kErr = nil, nil, 0
	s.steps, s.status = 0, Running
	s.hist = history{}
	s.nov = nil
	s.static, s.pointJSON, s.rowJSON, s.histJSON, s.pathJSON, s.planeJSON = nil, nil, nil, nil, nil, nil
	s.histStride = 0
	s.wVersion++
	for _, p := range s.set.points {
		s.static = append(s.static, PointState{X: [2]float64{exact.Float(p.x[0]), exact.Float(p.x[1])},
			Exact: [2]string{exact.Format(p.x[0]), exact.Format(p.x[1])}, Label: p.y})
	}
	s.cmd[0], s.cmd[1] = s.command()
	s.cfgView = s.set.cfg
	s.cfgView.Points = nil
	if s.set.k > 2 {
		return s.resetK()
	}
	s.data = &trace.Data{Name: "--point"}
	for i, p := range s.set.points {
		s.data.Points = append(s.data.Points, trace.Point{X: p.x, Y: p.y, Where: fmt.Sprintf("--point %d", i+1)})
	}
	var xs []exact.Vec
	var ys []int
	for _, p := range s.set.points {
		xs = append(xs, s.set.tc.Bias.Augment(p.x))
		ys = append(ys, p.y)
	}
	s.smp = newSamples(xs, ys)
	s.w = exact.Zeros(3)
	if s.set.tc.Init != nil {
		s.w = s.set.tc.Init.Clone()
	}
	if len(s.set.points) > 0 && !s.set.closed() {
		st, err := trace.NewStepper(s.data, s.set.tc)
		if err != nil {
			return err
		}
		s.st, s.w, s.rowWriter = st, st.W(), trace.NewRows(s.data)
	}
	s.addPath()
	s.record()
	return nil
}

// Reset starts the run again from the initial weights.
func (s *Session) Reset() error { return s.reset() }

// errNoPoints refuses a step with no samples.
var errNoPoints = errors.New("no points: add some first")

// Step makes one presentation (the perceptron's rules), one epoch (the K-class perceptron) or
// the solution (least squares, Fisher). A run that has ended is left as it is.
func (s *Session) Step() error {
	if len(s.set.points) == 0 {
		return errNoPoints
	}
	if s.status != Running {
		return nil
	}
	if s.set.k > 2 {
		return s.stepK()
	}
	if s.set.closed() {
		w, err := s.solve()
		if err != nil {
			return err
		}
		s.w, s.status = w, Solved
		s.steps++
		s.wVersion++
		s.addPath()
		s.record()
		return nil
	}
	st, end := s.st.Next()
	s.steps++
	s.rows = append(s.rows, s.rowWriter.Row(st))
	changed := st.Eta != nil
	if end != nil {
		if s.set.tc.Rule == trace.Batch {
			s.rows = append(s.rows, trace.BatchRow(*end))
			changed = end.Mistakes > 0
		}
		s.epochs = append(s.epochs, *end)
	}
	switch {
	case !s.st.Done():
	case s.st.Converged():
		s.status = Converged
	case s.st.Repeats() >= 0:
		s.status = Cycled
	default:
		s.status = Limit
	}
	if changed {
		s.wVersion++
		s.addPath()
		s.record()
	} else {
		s.hist.again(s.steps)
	}
	return nil
}

// Epoch steps to the end of the epoch under way (a whole epoch at an epoch's end).
func (s *Session) Epoch() error {
	if err := s.Step(); err != nil || s.st == nil {
		return err
	}
	for s.status == Running && s.st.InEpoch() != 0 {
		if err := s.Step(); err != nil {
			return err
		}
	}
	return nil
}

// RunToEnd steps until the run ends: every sample met, the weights cycling, the most epochs,
// or the solution.
func (s *Session) RunToEnd() error {
	if len(s.set.points) == 0 {
		return errNoPoints
	}
	for s.status == Running {
		if err := s.Step(); err != nil {
			return err
		}
	}
	return nil
}

// edit changes the points and runs again as far as the run had gone: to its end if it had
// ended, else as many steps.
func (s *Session) edit(points []point) error {
	old := s.set.points
	ended, n := s.status != Running, s.steps
	s.set.points = points
	if err := s.reset(); err != nil {
		s.set.points = old
		_ = s.reset()
		return err
	}
	if len(points) == 0 {
		return nil
	}
	if ended {
		return s.RunToEnd()
	}
	for range n {
		if s.status != Running {
			break
		}
		if err := s.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Add adds a point [x1, x2] of label (+1 or -1; 0..K-1 for K classes) and runs again.
func (s *Session) Add(x1, x2, label string) error {
	if len(s.set.points) >= MaxPoints {
		return fmt.Errorf("points: at most %d", MaxPoints)
	}
	p, err := readPoint([]Num{Num(x1), Num(x2), Num(label)}, s.set.k)
	if err != nil {
		return fmt.Errorf("point %d: %w", len(s.set.points)+1, err)
	}
	return s.edit(append(clonePoints(s.set.points), p))
}

// Move moves point index (from 0) to [x1, x2] and runs again.
func (s *Session) Move(index int, x1, x2 string) error {
	if index < 0 || index >= len(s.set.points) {
		return fmt.Errorf("point index %d: want 0..%d", index, len(s.set.points)-1)
	}
	pts := clonePoints(s.set.points)
	p, err := readPoint([]Num{Num(x1), Num(x2), Num(s.labelText(pts[index].y))}, s.set.k)
	if err != nil {
		return fmt.Errorf("point %d: %w", index+1, err)
	}
	pts[index] = p
	return s.edit(pts)
}

// Remove deletes point index (from 0) and runs again.
func (s *Session) Remove(index int) error {
	if index < 0 || index >= len(s.set.points) {
		return fmt.Errorf("point index %d: want 0..%d", index, len(s.set.points)-1)
	}
	pts := clonePoints(s.set.points)
	return s.edit(append(pts[:index], pts[index+1:]...))
}

func clonePoints(p []point) []point { return append([]point(nil), p...) }

// CSV returns the points in the --data FILE format of mark1 lab trace: a heading, then
// x1,x2,label a line, every number exact.
func (s *Session) CSV() string {
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	for _, p := range s.set.points {
		fmt.Fprintf(&b, "%s,%s,%s\n", exact.Format(p.x[0]), exact.Format(p.x[1]), s.labelText(p.y))
	}
	return b.String()
}

// LoadCSV replaces the points with those of text, in the --data FILE format (lab/trace.ReadCSV;
// for K classes the label is the class, 0..K-1), and runs again.
func (s *Session) LoadCSV(text string) error {
	var pts []point
	if s.set.k == 2 {
		d, err := trace.ReadCSV("csv", strings.NewReader(text))
		if err != nil {
			return err
		}
		if d.Dim() != 2 {
			return fmt.Errorf("csv: %d features: the playground's points have 2", d.Dim())
		}
		for _, p := range d.Points {
			pts = append(pts, point{x: p.X, y: p.Y})
		}
	} else {
		var err error
		if pts, err = readClassCSV(text, s.set.k); err != nil {
			return err
		}
	}
	if len(pts) > MaxPoints {
		return fmt.Errorf("csv: %d points, at most %d", len(pts), MaxPoints)
	}
	return s.edit(pts)
}

// readClassCSV reads lines x1,x2,class (or separated by spaces), # comments, blank lines and a
// heading of names.
func readClassCSV(text string, k int) ([]point, error) {
	var pts []point
	sc := bufio.NewScanner(strings.NewReader(text))
	line := 0
	for sc.Scan() {
		line++
		t, _, _ := strings.Cut(sc.Text(), "#")
		t = strings.TrimSpace(strings.TrimPrefix(t, "\ufeff"))
		if t == "" {
			continue
		}
		var f []string
		if strings.Contains(t, ",") {
			f = strings.Split(t, ",")
		} else {
			f = strings.Fields(t)
		}
		var nums []Num
		for _, v := range f {
			nums = append(nums, Num(strings.TrimSpace(v)))
		}
		p, err := readPoint(nums, k)
		if err != nil {
			if len(pts) == 0 && len(f) == 3 {
				if _, e := exact.Parse(strings.TrimSpace(f[0])); e != nil {
					continue // a heading
				}
			}
			return nil, fmt.Errorf("csv:%d: %w", line, err)
		}
		pts = append(pts, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	return pts, nil
}
