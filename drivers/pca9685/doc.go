// Package pca9685 drives hobby servos from NXP PCA9685 16-channel PWM boards over I²C: in the
// mark1 rig, real knobs turned by servos show the machine's weights.
//
// It writes the chip's registers itself, with counts it computes in int64 from each channel's
// calibration and the period the board really runs at. periph's devices/v3 pca9685 is not
// used for the writes: its NewI2C sleeps about 205 ms and sets every output to 0 (every servo
// goes limp) on each start, its prescale comes out one too high (49.6 Hz for 50 Hz), its pin
// adapter panics dividing by zero on Out and Halt, its ServoGroup overflows Go int on 32-bit
// ARM, and its SetPwm sends one transaction per channel. This package's single-channel write
// is byte for byte periph's SetPwm (tested), and a frame of several channels goes out in as
// few transactions as the chip's auto-increment allows.
//
// # The chip (datasheet sections 7.3.1, 7.3.3, 7.3.5)
//
// Each channel n has four 8-bit registers from 06h+4n: LEDn_ON_L, LEDn_ON_H, LEDn_OFF_L,
// LEDn_OFF_H. The output goes high at count ON and low at count OFF of a 4096-count period
// (12 bits each; bit 4 of ON_H is "full on", of OFF_H "full off", which wins). With MODE1's AI
// bit set, the register pointer increments after each byte, so one write can cover
// consecutive registers; with MODE2's OCH clear (the default) the outputs change at the STOP,
// so a channel's ON and OFF written together never glitch. The period is (PRE_SCALE + 1) *
// 4096 / f_osc, PRE_SCALE = round(f_osc / (4096 * f)) - 1, writable only while MODE1's SLEEP
// bit is set; the internal oscillator (nominally 25 MHz) varies from board to board, so
// Opts.Oscillator can be calibrated (measure the period with a scope or a logic analyser).
//
// This driver staggers the channels' ON counts (channel n turns on at count 256n) so that the
// servos' pulses, and their current peaks, do not all start together; it then only rewrites
// the OFF registers of a channel whose pulse changes: 2 bytes, or 1 when only the low byte
// changes. Runs of adjacent changed channels are merged into one transaction when the ON
// bytes in between cost no more than a new transaction's address and register bytes.
//
// New does not touch the outputs: a board that already runs exactly as this driver sets it
// (the daemon restarted, the board stayed powered: awake, not waiting for a restart, MODE1's
// AI on and ALLCALL and SUB1-3 off, MODE2 not inverted, changing at the STOP, totem-pole, and
// the right prescale) keeps its servos where they are, and one at power-up keeps them off until
// the first frame. A board another program left running otherwise (inverted or open-drain
// outputs, say) is set up again, as the datasheet orders it (7.3.1.1): asleep to write
// PRE_SCALE, awake, 500 us for the oscillator, then RESTART, so channels left running when it
// was put to sleep run again. It turns ALLCALL off, so the board does not also answer at 0x70
// (where an I²C multiplexer usually sits); 0x70 itself and the addresses the I²C specification
// reserves, 0x78-0x7F, are refused.
//
// A pulse of zero counts is the channel's full-off bit (LEDn_OFF_H bit 4), as Linux's
// pwm-pca9685 writes it, not equal ON and OFF counts. Hold drops the targets not yet written
// (the servos hold); Halt, for a program letting the board go, turns every configured channel
// fully off (the servos go limp where they are) and puts the board to sleep.
//
// # Slewing
//
// Several servos starting to move together draw their stall current together and brown out a
// shared supply. Opts.MaxSlewing bounds how many channels may be moving at once: a channel is
// counted as moving for the travel time its move needs at Opts.Speed, and a frame's further
// changes wait (staying pending, the latest target winning) until some finish.
//
// # Datasheet
//
// https://www.nxp.com/docs/en/data-sheet/PCA9685.pdf
package pca9685
