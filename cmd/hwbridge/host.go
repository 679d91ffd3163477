package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"periph.io/x/conn/v3/driver/driverreg"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/host/v3"

	"github.com/mark1-perceptron/mark1/drivers/gpioservo"
	"github.com/mark1-perceptron/mark1/drivers/rigdev"
)

// hostEnv returns the real host's buses and pins, through periph's host drivers. Drivers that
// failed to load are logged by name as warnings, the others in one line of Info: a missing
// GPIO or I2C driver is then named before a pin or a bus fails to open.
func hostEnv(logger *slog.Logger) (rigdev.Env, error) {
	st, err := host.Init()
	if err != nil {
		return rigdev.Env{}, fmt.Errorf("periph host: %w", err)
	}
	failed, loaded := hostReport(st)
	for _, line := range failed {
		logger.Warn(line)
	}
	if loaded != "" {
		logger.Info(loaded)
	}
	model := boardModel(os.ReadFile)
	pwm := gpioservo.CheckBoard(model)
	return rigdev.Env{Bus: openBus, Model: model, Pin: func(name string) (gpio.PinIO, error) {
		p, err := openPin(name)
		if err != nil || pwm == nil {
			return p, err
		}
		return noPWM{p, pwm}, nil
	}}, nil
}

// modelFiles are where a Linux board's device tree gives its model.
var modelFiles = []string{"/proc/device-tree/model", "/sys/firmware/devicetree/base/model"}

// boardModel returns the board's model from its device tree (read with read), without the
// trailing NUL; or, when no device tree tells, a sentence saying so (which names no board a GPIO
// servo may run on).
func boardModel(read func(string) ([]byte, error)) string {
	var why error
	for _, f := range modelFiles {
		b, err := read(f)
		if err == nil && len(b) > 0 && len(b) < 256 {
			return strings.Trim(string(b), "\x00 \t\r\n")
		}
		if why == nil {
			why = err
		}
	}
	if why == nil {
		why = errors.New("empty")
	}
	return fmt.Sprintf("unknown board (%s: %v)", modelFiles[0], why)
}

// noPWM is a pin of a board on which periph's PWM would send wrong pulses: its PWM refuses,
// saying why (everything else is the pin's own), so that no command, hwbridge jog included,
// sends a servo pulses two thirds as wide as asked.
type noPWM struct {
	gpio.PinIO
	why error
}

func (p noPWM) PWM(gpio.Duty, physic.Frequency) error {
	return fmt.Errorf("%s: %w", p.PinIO, p.why)
}

// hostReport describes periph's driver loading: the drivers that failed, one line each, and
// one line of those loaded.
func hostReport(st *driverreg.State) (failed []string, loaded string) {
	if st == nil {
		return nil, ""
	}
	for _, f := range st.Failed {
		failed = append(failed, fmt.Sprintf("periph host: driver %s failed: %v", f.D, f.Err))
	}
	var names []string
	for _, d := range st.Loaded {
		names = append(names, d.String())
	}
	return failed, fmt.Sprintf("periph host: %d drivers loaded (%s), %d skipped, %d failed", len(st.Loaded), strings.Join(names, ", "), len(st.Skipped), len(st.Failed))
}

// busPath returns the device file of an I2C bus named "1" or "/dev/i2c-1".
func busPath(device string) string {
	if strings.HasPrefix(device, "/") {
		return device
	}
	return "/dev/i2c-" + device
}

// checkDevice explains why a bus's device file cannot be used, in the words a Pi's owner
// needs: I2C not enabled, or the user not in the i2c group.
func checkDevice(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	switch {
	case err == nil:
		f.Close()
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist: not a Raspberry Pi, or I2C is not enabled (sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in /boot/firmware/config.txt, then reboot)", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied: add the user to the i2c group (sudo adduser $USER i2c, then log in again), or run hwbridge from its systemd unit (docs/rig.md)", path)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func openBus(device string) (i2c.Bus, error) {
	path := busPath(device)
	if err := checkDevice(path); err != nil {
		return nil, err
	}
	b, err := i2creg.Open(strings.TrimPrefix(path, "/dev/i2c-"))
	if err != nil {
		if strings.Contains(err.Error(), "no bus found") {
			return nil, fmt.Errorf("%s: periph finds no I2C bus on this host: %w", path, err)
		}
		return nil, err
	}
	return b, nil
}

func openPin(name string) (gpio.PinIO, error) {
	p := gpioreg.ByName(name)
	if p == nil {
		return nil, fmt.Errorf("no GPIO pin %q on this host (a Raspberry Pi's are GPIO2..GPIO27)", name)
	}
	return p, nil
}
