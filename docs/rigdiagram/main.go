// Command rigdiagram draws the mark1 rig's wiring diagram, docs/images/rig-wiring.png: the
// Raspberry Pi's header pins, the I2C bus, the chips with their address straps, the servos'
// own supply, the read-back wiring and the panel. It uses only the standard library's image
// packages and golang.org/x/image's bitmap font, so the picture is the same on every machine
// (a test checks the committed PNG against this program).
//
//	go run ./docs/rigdiagram -o docs/images/rig-wiring.png
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

var (
	black  = color.RGBA{20, 20, 20, 255}
	grey   = color.RGBA{110, 110, 110, 255}
	paper  = color.RGBA{250, 248, 240, 255}
	piFill = color.RGBA{214, 236, 214, 255}
	chip   = color.RGBA{222, 230, 246, 255}
	power  = color.RGBA{250, 222, 214, 255}
	panelC = color.RGBA{246, 238, 206, 255}
	sda    = color.RGBA{30, 100, 200, 255} // blue
	scl    = color.RGBA{230, 150, 20, 255} // orange
	v33    = color.RGBA{200, 30, 30, 255}  // red
	gnd    = color.RGBA{20, 20, 20, 255}   // black
	vservo = color.RGBA{170, 20, 150, 255} // magenta
	sig    = color.RGBA{40, 150, 60, 255}  // green: signals
	wiper  = color.RGBA{120, 70, 160, 255} // purple: read-back
)

const (
	width, height = 1600, 1040
)

type canvas struct{ *image.RGBA }

func (c canvas) rect(x0, y0, x1, y1 int, fill, edge color.Color) {
	draw.Draw(c, image.Rect(x0, y0, x1, y1), &image.Uniform{fill}, image.Point{}, draw.Src)
	c.hline(x0, x1, y0, edge, 2)
	c.hline(x0, x1, y1-2, edge, 2)
	c.vline(x0, y0, y1, edge, 2)
	c.vline(x1-2, y0, y1, edge, 2)
}

func (c canvas) hline(x0, x1, y int, col color.Color, w int) {
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	draw.Draw(c, image.Rect(x0, y-w/2, x1, y-w/2+w), &image.Uniform{col}, image.Point{}, draw.Src)
}

func (c canvas) vline(x, y0, y1 int, col color.Color, w int) {
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	draw.Draw(c, image.Rect(x-w/2, y0, x-w/2+w, y1), &image.Uniform{col}, image.Point{}, draw.Src)
}

// wire draws a right-angled wire from (x0, y0) to (x1, y1): across, then down, then across at
// the middle column xm.
func (c canvas) wire(x0, y0, xm, y1, x1 int, col color.Color) {
	c.hline(x0, xm, y0, col, 3)
	c.vline(xm, y0, y1, col, 3)
	c.hline(xm, x1, y1, col, 3)
	c.dot(xm, y0, col)
	c.dot(xm, y1, col)
}

func (c canvas) dot(x, y int, col color.Color) {
	draw.Draw(c, image.Rect(x-4, y-4, x+4, y+4), &image.Uniform{col}, image.Point{}, draw.Src)
}

// text writes s with its top-left corner at (x, y), the 7x13 bitmap font scaled by scale.
func (c canvas) text(x, y int, s string, scale int, col color.Color) {
	face := basicfont.Face7x13
	w := font.MeasureString(face, s).Ceil()
	small := image.NewRGBA(image.Rect(0, 0, w, 13))
	d := font.Drawer{Dst: small, Src: &image.Uniform{col}, Face: face, Dot: fixed.P(0, 11)}
	d.DrawString(s)
	xdraw.NearestNeighbor.Scale(c, image.Rect(x, y, x+w*scale, y+13*scale), small, small.Bounds(), xdraw.Over, nil)
}

func (c canvas) box(x0, y0, x1, y1 int, fill color.Color, title string, lines ...string) {
	c.rect(x0, y0, x1, y1, fill, black)
	c.text(x0+10, y0+8, title, 2, black)
	for i, l := range lines {
		c.text(x0+10, y0+40+i*18, l, 1, black)
	}
}

func draw1() *image.RGBA {
	c := canvas{image.NewRGBA(image.Rect(0, 0, width, height))}
	draw.Draw(c, c.Bounds(), &image.Uniform{paper}, image.Point{}, draw.Src)
	c.text(30, 18, "mark1 rig: wiring", 3, black)
	c.text(420, 22, "all logic at 3.3 V from the Pi; the servos on their own supply, grounds joined", 1, grey)
	c.text(420, 40, "a 0.1 uF capacitor from VDD to GND beside every bare chip (breakout boards carry their own)", 1, grey)

	// The Raspberry Pi and its header pins.
	c.box(30, 80, 330, 700, piFill, "Raspberry Pi", "40-pin header, pin numbers", "(Pi 2, 3, 4, 5, Zero or Zero 2)", "", "I2C: raspi-config nonint do_i2c 0", "user in group i2c")
	type pin struct {
		n     int
		label string
		col   color.Color
	}
	pins := []pin{
		{1, "3V3", v33}, {3, "SDA  GPIO2", sda}, {5, "SCL  GPIO3", scl}, {6, "GND", gnd},
		{29, "GPIO5  Train", sig}, {31, "GPIO6  Test", sig},
		{33, "GPIO13 Stop   (PWM1)", sig}, {35, "GPIO19 Reset  (PWM1)", sig},
	}
	py := map[int]int{}
	for i, p := range pins {
		y := 250 + i*46
		py[p.n] = y
		c.text(60, y-9, fmt.Sprintf("pin %2d  %s", p.n, p.label), 1, black)
		c.dot(330, y, p.col)
	}

	// The bus rails.
	rails := []struct {
		pin int
		x   int
		col color.Color
	}{{1, 380, v33}, {3, 400, sda}, {5, 420, scl}, {6, 440, gnd}}
	for _, r := range rails {
		c.hline(330, r.x, py[r.pin], r.col, 3)
		c.vline(r.x, py[r.pin], 960, r.col, 3)
	}
	c.text(372, 975, "3V3 SDA SCL GND", 1, black)

	// Chips on the bus: each taps the four rails.
	chipAt := func(x0, y0, x1, y1 int, fill color.Color, title string, lines ...string) {
		c.box(x0, y0, x1, y1, fill, title, lines...)
		for i, r := range rails {
			y := y0 + 14 + i*12
			c.hline(r.x, x0, y, r.col, 2)
			c.dot(r.x, y, r.col)
		}
	}
	// PCA9685 servo boards.
	chipAt(500, 70, 800, 230, chip, "PCA9685  0x40", "servo board \"knobs1\"", "VCC 3.3 V, OE to GND", "no address jumper: 0x40", "V+ from the servo supply", "outputs 0..15: servo signals")
	chipAt(500, 250, 800, 410, chip, "PCA9685  0x41", "servo board \"knobs2\"", "jumper A0 closed: 0x41", "(0x40 + A5..A0: to 0x77, not 0x70)", "V+ from the servo supply", "max_slewing: a few at a time")
	// The servo supply, apart from the Pi.
	c.box(900, 60, 1250, 190, power, "Servo supply", "5-6 V, 1-2 A per moving servo", "+ 1000 uF on the boards' V+", "NOT from the Pi's 5 V pins", "its GND joins the Pi's GND once")
	c.wire(800, 120, 850, 120, 900, vservo)
	c.wire(800, 300, 850, 130, 900, vservo)
	c.text(806, 100, "V+", 1, vservo)
	c.hline(1250, 1300, 170, gnd, 3)
	c.vline(1300, 170, 1010, gnd, 3)
	c.hline(440, 1300, 1010, gnd, 3)
	c.text(1040, 990, "supply GND joined to the Pi's GND (once)", 1, grey)
	// Servos with knobs.
	for i := range 3 {
		y := 246 + i*64
		c.box(1330, y, 1580, y+60, power, fmt.Sprintf("servo %d", i), "signal, V+, GND; knob on it")
		c.hline(800, 1330, y+30, sig, 2)
	}
	c.text(1330, 442, "... 16 per board", 1, grey)
	c.text(860, 262, "PWM signals from knobs2", 1, sig)

	// Digital pots.
	chipAt(500, 440, 800, 610, chip, "MCP4451  0x2C-0x2F", "4 pots x 257 steps each", "TSSOP-20: solder it to an adapter", "A1 A0 to GND/3.3V: 0x2C + A1A0", "(unwired: pulled up inside, 0x2F)", "P0A..P3A to 3.3 V, P0B..P3B to GND", "wipers P0W..P3W: the weights")
	// ADCs.
	chipAt(500, 640, 800, 810, chip, "ADS1115  0x48-0x4B", "4 inputs each, 16 bits", "ADDR to GND 0x48, VDD 0x49,", "SDA 0x4A, SCL 0x4B", "AIN0..3: a pot's wiper each", "(a knob's pot: across 3.3 V)")
	// Read-back wiring.
	c.wire(800, 560, 840, 700, 800, wiper)
	c.text(846, 620, "wipers -> AIN", 1, wiper)
	c.wire(1450, 430+0, 1450, 760, 800, wiper)
	c.text(1200, 766, "knob pot wiper -> AIN (closed loop)", 1, wiper)

	// Panel.
	chipAt(500, 840, 800, 990, panelC, "MCP23017  0x20", "panel expander (optional)", "GPA0..6: buttons, force switches", "   to GND (pull-ups on)", "GPB0..7: lamps through a ULN2803", "RESET to 3.3 V; A2 A1 A0 to GND")
	c.box(900, 820, 1250, 960, panelC, "Panel", "Train, Test, Stop, Reset: buttons", "force0..: switches (force an R-unit)", "r0..: a lamp per R-unit; fault lamp", "on GPIO pins or on the MCP23017")
	c.wire(800, 900, 850, 900, 900, sig)
	for _, p := range []int{29, 31, 33, 35} {
		c.hline(330, 360, py[p], sig, 2)
	}
	c.vline(360, py[29], 1000, sig, 2)
	c.hline(360, 880, 1000, sig, 2)
	c.vline(880, 950, 1000, sig, 2)
	c.hline(880, 900, 950, sig, 2)
	c.text(560, 1016, "buttons on Pi pins 29, 31, 33, 35 (to GND)", 1, sig)
	// GPIO servo: PWM1 only, on a Pi whose clock periph gets right.
	c.text(40, 710, "a servo on the Pi's own PWM: pin 33", 1, sig)
	c.text(40, 728, "or 35 (PWM1; move that button), one", 1, sig)
	c.text(40, 746, "servo; Pi 2, 3, Zero, Zero 2; root;", 1, sig)
	c.text(40, 764, "a Pi 4 or 5: on a PCA9685 only", 1, sig)

	// Legend.
	c.text(30, 790, "wires:", 2, black)
	legend := []struct {
		col  color.Color
		name string
	}{{v33, "3.3 V"}, {sda, "SDA"}, {scl, "SCL"}, {gnd, "GND"}, {vservo, "servo V+"}, {sig, "signals"}, {wiper, "read-back"}}
	for i, l := range legend {
		y := 830 + i*24
		c.hline(40, 90, y, l.col, 4)
		c.text(100, y-7, l.name, 1, black)
	}
	c.text(50, 646, "keep I2C wires short (< 50 cm);", 1, grey)
	c.text(50, 664, "the Pi has 1.8k pull-ups on SDA/SCL:", 1, grey)
	c.text(50, 682, "remove extras past 3-4 boards", 1, grey)
	return c.RGBA
}

func main() {
	out := flag.String("o", "docs/images/rig-wiring.png", "the PNG file to write")
	flag.Parse()
	var buf bytes.Buffer
	if err := png.Encode(&buf, draw1()); err != nil {
		fmt.Fprintln(os.Stderr, "rigdiagram:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rigdiagram:", err)
		os.Exit(1)
	}
}
