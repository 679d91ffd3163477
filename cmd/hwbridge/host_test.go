package main

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"

	"github.com/mark1-perceptron/mark1/drivers/gpioservo"
)

func TestBoardModel(t *testing.T) {
	files := map[string]string{}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if got := boardModel(read); !strings.HasPrefix(got, "unknown board (/proc/device-tree/model: open /proc/device-tree/model: file does not exist)") {
		t.Errorf("no device tree: %q", got)
	}
	if gpioservo.CheckBoard(boardModel(read)) == nil {
		t.Error("an unknown board passes the GPIO servo's check")
	}
	files["/sys/firmware/devicetree/base/model"] = "Raspberry Pi 4 Model B Rev 1.4\x00"
	if got := boardModel(read); got != "Raspberry Pi 4 Model B Rev 1.4" {
		t.Errorf("from /sys: %q", got)
	}
	files["/proc/device-tree/model"] = "Raspberry Pi 3 Model B Rev 1.2\x00"
	if got := boardModel(read); got != "Raspberry Pi 3 Model B Rev 1.2" {
		t.Errorf("from /proc: %q", got)
	}
}

// On a board whose PWM periph gets wrong, a pin's PWM refuses (and the rest of the pin works).
func TestNoPWM(t *testing.T) {
	pin := &gpiotest.Pin{N: "GPIO13", Num: 13}
	why := gpioservo.CheckBoard("Raspberry Pi 4 Model B Rev 1.4")
	p := noPWM{pin, why}
	err := p.PWM(gpio.DutyHalf, 50*physic.Hertz)
	if !errors.Is(err, why) || !strings.Contains(err.Error(), "GPIO13") || pin.F != 0 {
		t.Errorf("PWM = %v; the pin got %v at %v", err, pin.D, pin.F)
	}
	if err := p.Out(gpio.Low); err != nil || pin.L != gpio.Low {
		t.Errorf("Out: %v", err)
	}
}
