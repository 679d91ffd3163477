package gpioservo

import (
	"fmt"
	"strings"
)

// CheckBoard tells whether periph (host v3.8.5) sends a servo's pulses right on the board whose
// device-tree model is model (the text of /proc/device-tree/model, as "Raspberry Pi 3 Model B
// Plus Rev 1.3"): nil on a BCM2835, BCM2836 or BCM2837 board (a Raspberry Pi 1, 2, 3, Zero,
// Zero 2, or a Compute Module 1 or 3), whose PWM clock is the one periph assumes; otherwise an
// error naming the board, why, and the PCA9685 to use instead.
func CheckBoard(model string) error {
	m := strings.Trim(model, "\x00 \t\r\n")
	rest, pi := strings.CutPrefix(m, "Raspberry Pi ")
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(rest, p) {
				return true
			}
		}
		return false
	}
	switch {
	case pi && has("Model ", "2 ", "3 ", "Zero", "Compute Module Rev", "Compute Module 3"):
		return nil
	case pi && has("4 ", "400", "Compute Module 4"):
		return fmt.Errorf("a servo on a GPIO pin of a %s would get wrong pulses: periph (host v3.8.5) assumes the 500 MHz PLLD of a BCM2835-7, and this board's BCM2711 runs it at 750 MHz, so a 50 Hz signal would come out at 75 Hz with pulses two thirds as wide as asked; put the servo on a PCA9685 channel", m)
	case pi && has("5 ", "500", "Compute Module 5"):
		return fmt.Errorf("a servo on a GPIO pin of a %s cannot be driven: periph has no PWM for its RP1 GPIO; put the servo on a PCA9685 channel", m)
	case m == "":
		return fmt.Errorf("a servo on a GPIO pin needs a known board, and this one's model is unknown (no /proc/device-tree/model): put the servo on a PCA9685 channel")
	}
	return fmt.Errorf("a servo on a GPIO pin of a %q: not a board whose PWM clock periph (host v3.8.5) is known to get right (a Raspberry Pi 1, 2, 3, Zero or Zero 2); put the servo on a PCA9685 channel", m)
}
