// Package gpioservo drives one hobby servo from a GPIO pin with hardware PWM, for a rig that
// needs a knob or two without a PCA9685 board.
//
// The pulse is set through periph's gpio.PinOut.PWM with a duty the package computes in int64
// from the channel's calibration (the pulse at both ends, direction, trim) and the frequency.
// On a Raspberry Pi 1-4 the BCM283x has two hardware PWM channels (GPIO12 or GPIO18 for PWM0,
// GPIO13 or GPIO19 for PWM1) and periph needs root to drive them; a Raspberry Pi 5's GPIO
// driver has no PWM: use a PCA9685 there. A software-timed PWM jitters too much for a servo
// and is not offered.
//
// # Servo signal
//
// A pulse of 1-2 ms (500-2500 us for many servos) every 20 ms (50 Hz); the pulse's width sets
// the angle. See the servo's own sheet for its ends: find them with hwbridge jog.
package gpioservo
