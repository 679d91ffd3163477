package gpioservo

import (
	"strings"
	"testing"
)

// Model strings as the boards' device trees give them (/proc/device-tree/model ends with a
// NUL).
func TestCheckBoard(t *testing.T) {
	for model, want := range map[string]string{
		"Raspberry Pi Model B Rev 2\x00":                 "",
		"Raspberry Pi Model B Plus Rev 1.2\x00":          "",
		"Raspberry Pi 2 Model B Rev 1.1\x00":             "",
		"Raspberry Pi 3 Model B Rev 1.2\x00":             "",
		"Raspberry Pi 3 Model B Plus Rev 1.3\x00":        "",
		"Raspberry Pi 3 Model A Plus Rev 1.0\x00":        "",
		"Raspberry Pi Zero W Rev 1.1\x00":                "",
		"Raspberry Pi Zero 2 W Rev 1.0\x00":              "",
		"Raspberry Pi Compute Module 3 Plus Rev 1.0\x00": "",
		"Raspberry Pi 4 Model B Rev 1.4\x00":             "Raspberry Pi 4 Model B Rev 1.4 would get wrong pulses",
		"Raspberry Pi 400 Rev 1.0\x00":                   "750 MHz, so a 50 Hz signal would come out at 75 Hz",
		"Raspberry Pi Compute Module 4 Rev 1.0\x00":      "BCM2711",
		"Raspberry Pi 5 Model B Rev 1.0\x00":             "Raspberry Pi 5 Model B Rev 1.0 cannot be driven: periph has no PWM",
		"Raspberry Pi 500 Rev 1.0\x00":                   "RP1",
		"Raspberry Pi Compute Module 5 Rev 1.0\x00":      "RP1",
		"":                                     "model is unknown",
		"Libre Computer AML-S905X-CC\x00":      "\"Libre Computer AML-S905X-CC\": not a board",
		"Raspberry Pi 6 Model B Rev 1.0\x00":   "not a board whose PWM clock",
		"Raspberry Pi 3 Model B Rev 1.2\x00\n": "",
	} {
		// The model as given names the case ("" runs as #00; spaces become _).
		t.Run(model, func(t *testing.T) {
			err := CheckBoard(model)
			switch {
			case want == "" && err != nil:
				t.Errorf("%q: %v", model, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "PCA9685")):
				t.Errorf("%q: %v; want an error with %q naming the PCA9685", model, err, want)
			}
		})
	}
}
