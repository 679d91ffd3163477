// Package gpioservo drives one hobby servo from a GPIO pin with hardware PWM, for a rig that
// needs a knob without a PCA9685 board.
//
// The pulse is set through periph's gpio.PinOut.PWM with a duty the package computes in int64
// from the channel's calibration (the pulse at both ends, direction, trim) and the frequency.
//
// # What a Raspberry Pi gives (periph host v3.8.5, bcm283x)
//
// Of the header's pins only GPIO12, 13, 18 and 19 carry PWM, and periph drives only GPIO13 and
// GPIO19 from a hardware channel (PWM1, the same channel on both: one servo at most); GPIO12
// and GPIO18 are DMA-driven in 5 us steps (PWM0 clocks the DMA). PWM through periph needs
// /dev/mem, so root. periph assumes the clock of a BCM2835/6/7 (a 19.2 MHz crystal and a
// 500 MHz PLLD): on a Raspberry Pi 4 (BCM2711, PLLD 750 MHz) a 50 Hz servo signal would come
// out at 75 Hz with pulses two thirds as wide, and a Raspberry Pi 5's GPIO (the RP1) has no PWM
// in periph. CheckBoard tells, from the board's device-tree model, whether the pulses will be
// right: a Raspberry Pi 1, 2, 3, Zero or Zero 2 (or a Compute Module 1 or 3). Elsewhere use a
// PCA9685. A software-timed PWM jitters too much for a servo and is not offered.
//
// # Servo signal
//
// A pulse of 1-2 ms (500-2500 us for many servos) every 20 ms (50 Hz); the pulse's width sets
// the angle. See the servo's own sheet for its ends: find them with hwbridge jog.
package gpioservo
