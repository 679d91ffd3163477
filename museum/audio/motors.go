package audio

// Motors counts the potentiometers' motors turning, as the screen shows them: each pot's
// shaft turns toward its reading at Speed increments a second of machine time (the view's
// dials do the same), and a motor turns while its shaft has not arrived.
type Motors struct {
	// Speed is the motors' speed in increments a second of machine time (0: 2, the view's
	// DefaultMotorSpeed).
	Speed float64

	shown [][]float64
}

// Update moves the shafts toward pots for dt seconds of wall time at pace (machine seconds a
// wall second; +Inf: they arrive at once, and those that moved since the last update count) and returns how many turn. jump puts them at their
// readings (a new machine). It does not allocate once it has seen the machine's size.
func (m *Motors) Update(pots [][]float64, pace, dt float64, jump bool) int {
	speed := m.Speed
	if speed <= 0 {
		speed = 2
	}
	if len(m.shown) != len(pots) {
		m.shown = make([][]float64, len(pots))
		jump = true
	}
	step := float64(speed * pace * max(0, min(dt, 1))) // rounded: no fused multiply-add below
	turning := 0
	for r, p := range pots {
		sh := m.shown[r]
		if len(sh) != len(p) {
			sh = make([]float64, len(p))
			m.shown[r] = sh
			jump = true
		}
		if jump {
			copy(sh, p)
			continue
		}
		if step > 1e300 {
			// As fast as the processor goes: the shafts that moved since the last update turned.
			for i, v := range p {
				if v != sh[i] {
					turning++
					sh[i] = v
				}
			}
			continue
		}
		for i, v := range p {
			d := v - sh[i]
			switch {
			case d > step:
				sh[i] += step
				turning++
			case d < -step:
				sh[i] -= step
				turning++
			default:
				sh[i] = v
			}
		}
	}
	return turning
}

// RigMotors returns how many motors the whir stands for while a hardware rig's knobs turn:
// moving of its knobs knobs, each the share of the machine's motors it shows, so that every
// knob turning is the whir at its loudest (FullWhir) and none is silence. With a rig attached
// the window plays this, not the screen's dials: the sound follows the real knobs' moves.
func RigMotors(moving, knobs int) int {
	if knobs <= 0 || moving <= 0 {
		return 0
	}
	return min(moving, knobs) * FullWhir / knobs
}
