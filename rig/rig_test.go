package rig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../testdata/rig/*.toml")
	if err != nil || len(files) < 3 {
		t.Fatalf("examples: %v, %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			rg, err := ReadFile(f)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			t.Logf("%s: %s", f, rg.Summary())
		})
	}
	rg, err := ReadFile("../testdata/rig/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(rg.Pots) != 25 || rg.Pots[0].Weight != (Weight{0, 0}) || rg.Pots[15].Out != (Ref{"knobs1", 15}) {
		t.Errorf("pots: %d, first %v, 16th %v", len(rg.Pots), rg.Pots[0].Weight, rg.Pots[15].Out)
	}
	p := rg.Pots[19]
	if p.Weight.String() != "R0.A19" || p.Readback == nil || *p.Readback != (Ref{"readback", 3}) || p.Kind != "servo" {
		t.Errorf("pot 19: %+v", p)
	}
	if b := rg.Pots[24]; b.Weight.A != Bias || b.Kind != "servo" || b.Out != (Ref{"knobs2", 8}) {
		t.Errorf("bias pot: %+v", b)
	}
	gs, err := Parse(strings.NewReader(head+"[[gpio_servo]]\nname = \"biasknob\"\npin = \"GPIO13\"\n[[pot]]\nweight = \"R0.bias\"\nout = \"biasknob\"\n"), "gpio.toml")
	if err != nil {
		t.Fatal(err)
	}
	if b := gs.Pots[0]; b.Weight.A != Bias || b.Kind != "gpio_servo" || b.Out.Channel != -1 || gs.GPIOServos[0].Pin != "GPIO13" {
		t.Errorf("gpio servo pot: %+v", b)
	}
	if rg.Pots[20].MinPulse != 600*time.Microsecond || rg.Period() != 50*time.Millisecond {
		t.Errorf("calibration %v, period %v", rg.Pots[20].MinPulse, rg.Period())
	}
	loop, err := ReadFile("../testdata/rig/sim-loop.toml")
	if err != nil {
		t.Fatal(err)
	}
	if loop.Mode != ModeLoop || len(loop.Pots) != 16 || loop.Machine.AUnits != 15 || loop.Pots[15].Kind != "digipot" {
		t.Errorf("sim-loop: %s", loop.Summary())
	}
}

const head = "[rig]\n[[bus]]\nname = \"main\"\ndevice = \"1\"\n"

func TestBadFiles(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"empty", "", "rig.toml:1: no [rig] section"},
		{"not TOML", "[rig\nmode = 1", "rig.toml:1: malformed TOML"},
		{"unknown section", "[rig]\n[servo]\n", "rig.toml:2: [servo]: unknown section"},
		{"single as array", "[[rig]]\n", "rig.toml:1: [[rig]]: write [rig]"},
		{"array as single", "[rig]\n[pot]\n", "rig.toml:2: [pot]: write [[pot]]"},
		{"rig twice", "[rig]\n[rig]\n", "rig.toml:2: [rig]: given twice (first on line 1)"},
		{"nested", "[rig.x]\n", "nested sections"},
		{"outside", "mode = \"loop\"\n", "rig.toml:1: mode: outside any section"},
		{"dotted", "[rig]\na.b = 1\n", "dotted keys"},
		{"unknown key", "[rig]\nmodes = \"loop\"\n", "rig.toml:2: [rig] modes: unknown key (want mode, update_hz"},
		{"key twice", "[rig]\nretries = 1\nretries = 2\n", "rig.toml:3: [rig] retries: given twice (first on line 2)"},
		{"bad mode", "[rig]\nmode = \"both\"\n", "rig.toml:2: [rig] mode: \"both\": want mirror or loop"},
		{"wrong type", "[rig]\nupdate_hz = \"fast\"\n", "rig.toml:2: [rig] update_hz: want a number, not a string"},
		{"out of range", "[rig]\nupdate_hz = 1000\n", "update_hz: 1000 out of range 1..200"},
		{"NaN", "[rig]\ntolerance = nan\n", "tolerance: NaN out of range"},
		{"inline table", "[rig]\nmode = {a = 1}\n", "rig.toml:2: [rig] mode: want a string, a number, true/false or an array, not an inline table"},
		{"date", "[rig]\nmode = 1979-05-27\n", "rig.toml:2: [rig] mode: want a string, a number, true/false or an array, not a date"},
		{"inline table in an array", "[rig]\n[panel]\nlamps = [{a = 1}]\n", "rig.toml:3: [panel] lamps: want a string, a number, true/false or an array, not an inline table"},
		{"whole float", "[rig]\nretries = 2.0\n", "rig.toml:2: [rig] retries: 2.0 is a float; write 2"},
		{"fraction", "[rig]\nretries = 2.5\n", "rig.toml:2: [rig] retries: 2.5 is not a whole number"},
		{"string for a number", "[rig]\nretries = \"2\"\n", "rig.toml:2: [rig] retries: want a whole number, not a string"},
		{"number for a string", "[rig]\nmode = 2\n", "rig.toml:2: [rig] mode: want a string in quotes, not an integer"},
		{"string for true/false", head + "[[mcp44x1]]\nname = \"p\"\nbus = \"main\"\naddress = 0x2C\nstep_commands = \"yes\"\n", "rig.toml:9: [[mcp44x1]] #1 step_commands: want true or false, not a string"},
		{"string address", head + "[[mcp44x1]]\nname = \"p\"\nbus = \"main\"\naddress = \"0x2C\"\n", "rig.toml:8: [[mcp44x1]] #1 address: want a whole number (0x2c), not a string"},
		{"long name", head + "[[mcp44x1]]\nname = \"" + strings.Repeat("p", 257) + "\"\n", "rig.toml:6: [[mcp44x1]] #1 name: longer than 256 bytes"},
		{"long array", "[rig]\n[panel]\nlamps = [" + strings.Repeat("\"a\", ", 1025) + "]\n", "rig.toml:3: [panel] lamps: more than 1024 elements"},
		{"bad rule", "[rig]\n[machine]\nrule = \"delta\"\n", "rig.toml:3: [machine] rule: \"delta\": want alpha, gamma or forced"},
		{"byte-order mark", "\uFEFF[rig]\nmode = \"both\"\n", "rig.toml:2: [rig] mode: \"both\": want mirror or loop"},
		{"huge int", "[rig]\nretries = 99999999999999999999\n", "out of range"},
		{"watchdog too short", "[rig]\nupdate_hz = 10\nwatchdog_ms = 100\n", "rig.toml:3: [rig] watchdog_ms: 100ms is shorter than two update periods"},
		{"loop parked", "[rig]\nmode = \"loop\"\non_watchdog = \"park\"\n", "rig.toml:3: [rig] on_watchdog: \"park\" in a loop rig: its pots are its machine's weights"},
		{"missing address", head + "[[pca9685]]\nname = \"k\"\nbus = \"main\"\n", "rig.toml:5: [[pca9685]] #1 address: missing"},
		{"8-bit address", head + "[[mcp44x1]]\nname = \"p\"\nbus = \"main\"\naddress = 0x58\n", "rig.toml:8: [[mcp44x1]] #1 address: 0x58 out of range 0x2c-0x2f (0x58 is the 8-bit form of 0x2c)"},
		{"allcall", head + "[[pca9685]]\nname = \"k\"\nbus = \"main\"\naddress = 0x70\n", "rig.toml:5: [[pca9685]] \"k\": 0x70 is every PCA9685's ALLCALL"},
		{"unknown bus", "[rig]\n[[ads1115]]\nname = \"a\"\nbus = \"b\"\naddress = 0x48\n", "rig.toml:2: [[ads1115]] \"a\": bus \"b\" is not a [[bus]]"},
		{"address clash", head + "[[pca9685]]\nname = \"k\"\nbus = \"main\"\naddress = 0x48\n[[ads1115]]\nname = \"a\"\nbus = \"main\"\naddress = 0x48\n",
			"rig.toml:9: [[ads1115]] \"a\": address 0x48 on bus \"main\" is \"k\"'s already"},
		{"name clash", head + "[[pca9685]]\nname = \"k\"\nbus = \"main\"\naddress = 0x40\n[[gpio_servo]]\nname = \"k\"\npin = \"GPIO19\"\n", "rig.toml:9: [[gpio_servo]] \"k\": name given twice (first on line 5)"},
		{"reserved address", head + "[[pca9685]]\nname = \"k\"\nbus = \"main\"\n\naddress = 0x78\n", "rig.toml:9: [[pca9685]] #1 address: 0x78 is reserved by the I2C specification"},
		{"reserved address 0x7f", head + "[[pca9685]]\nname = \"k\"\nbus = \"main\"\naddress = 0x7F\n", "rig.toml:8: [[pca9685]] #1 address: 0x7f is reserved"},
		{"servo on GPIO18", head + "[[gpio_servo]]\nname = \"s\"\n\npin = \"GPIO18\"\n", "rig.toml:8: [[gpio_servo]] #1 pin: \"GPIO18\" is PWM0, which periph drives by DMA in 5 us steps"},
		{"servo on GPIO12", head + "[[gpio_servo]]\nname = \"s\"\npin = \"GPIO12\"\n", "rig.toml:7: [[gpio_servo]] #1 pin: \"GPIO12\" is PWM0"},
		{"servo on GPIO5", head + "[[gpio_servo]]\nname = \"s\"\npin = \"GPIO5\"\n", "rig.toml:7: [[gpio_servo]] #1 pin: \"GPIO5\" has no hardware PWM"},
		{"two GPIO servos", head + "[[gpio_servo]]\nname = \"s\"\npin = \"GPIO13\"\n[[gpio_servo]]\nname = \"t\"\npin = \"GPIO19\"\n", "rig.toml:8: [[gpio_servo]] \"t\": a second GPIO servo: GPIO13 and GPIO19 are the same PWM channel"},
		{"servo pin on the panel", head + "[[gpio_servo]]\nname = \"s\"\npin = \"GPIO13\"\n[panel]\nstop = \"GPIO13\"\n", "rig.toml:8: [panel] stop: \"GPIO13\" is already [[gpio_servo]] \"s\"'s pin"},
		{"bad weight", head + "[[pot]]\nweight = \"A3\"\nout = \"x:1\"\n", "rig.toml:6: [[pot]] #1 weight: \"A3\": want R<unit>.A<unit>"},
		{"unknown chip", head + "[[pot]]\nweight = \"R0.A3\"\nout = \"x:1\"\n", "rig.toml:5: [[pot]] R0.A3: out x:1: no chip named \"x\""},
		{"channel range", head + servos + "[[pot]]\nweight = \"R0.A3\"\nout = \"k:14\"\ncount = 3\n", "[[pot]] R0.A5: out k:16: want a PCA9685 channel 0..15"},
		{"weight twice", head + servos + "[[pot]]\nweight = \"R0.A3\"\nout = \"k:1\"\n[[pot]]\nweight = \"R0.A3\"\nout = \"k:2\"\n", "rig.toml:12: [[pot]] R0.A3: weight already shown by the pot on line 9"},
		{"out twice", head + servos + "[[pot]]\nweight = \"R0.A3\"\nout = \"k:1\"\n[[pot]]\nweight = \"R0.A4\"\nout = \"k:1\"\n", "out k:1 is already the pot's on line 9"},
		{"readback not adc", head + servos + "[[pot]]\nweight = \"R0.A3\"\nout = \"k:1\"\nreadback = \"k:2\"\n", "readback k:2: want an [[ads1115]]'s channel"},
		{"bias count", head + servos + "[[pot]]\nweight = \"R0.bias\"\nout = \"k:1\"\ncount = 2\n", "rig.toml:12: [[pot]] #1 count: a bias pot is one pot"},
		{"min above max", head + servos + "[[pot]]\nweight = \"R0.A0\"\nout = \"k:1\"\nmin_us = 2000\nmax_us = 1500\n", "rig.toml:13: [[pot]] #1 max_us: 1.5ms is not above min_us 2ms"},
		{"loop without machine", "[rig]\nmode = \"loop\"\n", "needs a [machine] section"},
		{"loop missing weight", "[rig]\nmode = \"loop\"\n[machine]\na_units = 2\n" + "[[bus]]\nname = \"main\"\ndevice = \"1\"\n" + digipots +
			"[[pot]]\nweight = \"R0.A0\"\nout = \"p:0\"\nreadback = \"a:0\"\ncount = 2\n", "rig.toml:3: [machine]: in the loop every weight is a pot, and R0.bias has none"},
		{"loop without readback", "[rig]\nmode = \"loop\"\n[machine]\na_units = 1\n" + "[[bus]]\nname = \"main\"\ndevice = \"1\"\n" + digipots +
			"[[pot]]\nweight = \"R0.A0\"\nout = \"p:0\"\nreadback = \"a:0\"\n[[pot]]\nweight = \"R0.bias\"\nout = \"p:1\"\n", "[[pot]] R0.bias: in the loop the sums use the read-back"},
		{"panel pin", "[rig]\n[panel]\ntrain = \"pin 5\"\n", "rig.toml:2: [panel] train: \"pin 5\": want a GPIO pin"},
		{"panel expander", "[rig]\n[panel]\ntrain = \"io:A0\"\n", "no [[mcp23017]] named \"io\""},
		{"panel input on A7", "[rig]\n[[bus]]\nname = \"main\"\ndevice = \"1\"\n[[mcp23017]]\nname = \"io\"\nbus = \"main\"\naddress = 0x20\n[panel]\ntrain = \"io:A6\"\nforce = [\"io:A0\", \"io:A7\"]\nfault_lamp = \"io:B7\"\n",
			"rig.toml:9: [panel] force[1]: \"io:A7\": GPA7 and GPB7 are outputs only"},
		{"panel input on B7", "[rig]\n[[bus]]\nname = \"main\"\ndevice = \"1\"\n[[mcp23017]]\nname = \"io\"\nbus = \"main\"\naddress = 0x20\n[panel]\nstop = \"io:B7\"\n",
			"rig.toml:9: [panel] stop: \"io:B7\": GPA7 and GPB7 are outputs only"},
		{"panel twice", "[rig]\n[panel]\ntrain = \"GPIO5\"\ntest = \"GPIO5\"\n", "[panel] test: \"GPIO5\" is already train"},
		{"panel array", "[rig]\n[panel]\nlamps = [1, 2]\n", "want an array of strings, not of an integer"},
		{"nested array", "[rig]\n[panel]\nlamps = [[\"a\"]]\n", "nested arrays"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.text), "rig.toml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v\nwant an error with %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error of several lines: %q", err)
			}
		})
	}
}

const servos = "[[pca9685]]\nname = \"k\"\nbus = \"main\"\naddress = 0x40\n"

const digipots = "[[mcp44x1]]\nname = \"p\"\nbus = \"main\"\naddress = 0x2C\n[[ads1115]]\nname = \"a\"\nbus = \"main\"\naddress = 0x48\n"

func TestReadFileRefusesNonRegular(t *testing.T) {
	if _, err := ReadFile(os.DevNull); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFile(%s) = %v", os.DevNull, err)
	}
	if _, err := Parse(strings.NewReader(strings.Repeat("#", MaxFile+1)), "big.toml"); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a huge file: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"example", "sim-loop", "sim-mirror"} {
		b, err := os.ReadFile("../testdata/rig/" + name + ".toml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(head + servos + "[[pot]]\nweight = \"R0.A3\"\nout = \"k:1\"\n")
	f.Add("[rig]\n\"a\\u0062\" = 1\n")
	f.Add("[rig]\n[[pot]]\nweight = \"R63.A65535\"\ncount = 4096\n")
	f.Fuzz(func(t *testing.T, text string) {
		rg, err := Parse(strings.NewReader(text), "fuzz.toml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml:") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q: want one line starting with the file name", err)
			}
			return
		}
		if len(rg.Pots) > MaxPots {
			t.Fatalf("%d pots", len(rg.Pots))
		}
		seen := map[Weight]bool{}
		for _, p := range rg.Pots {
			if seen[p.Weight] {
				t.Fatalf("weight %v twice", p.Weight)
			}
			seen[p.Weight] = true
		}
	})
}

// The built-in rigs are the simulated rigs of testdata (links to the same files), and a
// built-in loop rig finds its wiring file among them.
func TestBuiltin(t *testing.T) {
	if got := strings.Join(Builtins(), ","); got != "loop,mirror" {
		t.Errorf("Builtins() = %s", got)
	}
	for name, file := range map[string]string{"loop": "../testdata/rig/sim-loop.toml", "mirror": "../testdata/rig/sim-mirror.toml"} {
		t.Run(name, func(t *testing.T) {
			b, err := Builtin(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if b.File != "builtin:"+name || b.Summary() != f.Summary() || len(b.Pots) != len(f.Pots) {
				t.Errorf("builtin:%s: %s, %d pots; %s: %s, %d pots", name, b.Summary(), len(b.Pots), file, f.Summary(), len(f.Pots))
			}
		})
	}
	b, err := Builtin("loop")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := b.MachineConfig()
	if err != nil || cfg.Board == nil || cfg.Board.Len() != 15 {
		t.Fatalf("builtin:loop's machine: %v (board %v)", err, cfg.Board)
	}
	for _, bad := range []string{"nope", "../rig", "loop.toml", ""} {
		t.Run(fmt.Sprintf("%q", bad), func(t *testing.T) {
			if _, err := Builtin(bad); err == nil || !strings.Contains(err.Error(), "no such built-in rig (there are loop, mirror)") {
				t.Errorf("Builtin(%q) = %v", bad, err)
			}
		})
	}
}
