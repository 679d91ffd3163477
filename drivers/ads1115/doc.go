// Package ads1115 reads voltages with a TI ADS1115 16-bit ADC through periph's ads1x15 driver,
// wrapped so that a read never returns a stale value silently and every bus error surfaces.
// The mark1 rig reads its pots' wipers back with it.
//
// ads1x15's single-shot Read starts a conversion, waits exactly one conversion period
// (1/data-rate) and reads the conversion register without looking at the ready bit. The
// ADS1115's own oscillator may run up to 10% slow (datasheet, "data rate variation"), and the
// conversion register keeps the previous result until a conversion ends: right after a
// multiplexer change, that is the previous channel's value. Its ReadContinuous drops errors.
// This package therefore uses only the single-shot Read, then reads the config register until
// its OS bit says the conversion has ended (checking that the multiplexer is still on the
// channel asked for), and reads the conversion register again: that value is this channel's,
// fresh. When it differs from what the fixed wait gave, the read counts as "stale caught"
// (Stats), which shows how often the fixed wait alone would have been wrong.
//
// # Datasheet
//
// https://www.ti.com/lit/ds/symlink/ads1115.pdf (section 8.3.3 multiplexer, 8.4.2 single-shot
// mode and the OS bit, 8.6.3 config register)
package ads1115
