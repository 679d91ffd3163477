// Package i2csim simulates an I²C bus and the chips of the mark1 rig at the register level, so
// that the whole rig (drivers, bridge, client) runs on any machine, and so that tests can
// inject the faults real wiring has.
//
// A Bus implements periph's i2c.Bus. Chips are attached at their 7-bit addresses; a
// transaction to an address where nothing is attached is not acknowledged (a NACK), as on a
// real bus. Each chip models its registers from its datasheet:
//
//   - PCA9685 (NXP, 16-channel 12-bit PWM): MODE1/MODE2, the LEDn ON/OFF registers with the
//     full-on and full-off bits, ALL_LED, PRE_SCALE (writable only while asleep), register
//     auto-increment (MODE1 AI), and the output period from the prescale and a board's own
//     oscillator; the order a driver must keep (7.3.1.1): the oscillator's 500 us start after
//     SLEEP is cleared, RESTART (a board put to sleep with channels running keeps them stopped
//     until restarted, and a RESTART written too soon is ignored), and the LED All Call and
//     sub-addresses, where the board answers too while MODE1 enables them (0x70 at power-up).
//     Servos hang on its channels and move at a finite speed.
//     https://www.nxp.com/docs/en/data-sheet/PCA9685.pdf
//   - MCP4451/MCP4461 (Microchip, quad 257-step digital potentiometer): the command byte
//     (address, command, D9:D8), write, increment, decrement and read, volatile and
//     non-volatile wipers, TCON0/TCON1, STATUS with its fixed bits, WiperLock, write
//     protection, and the EEPROM write cycle (EEWA set for up to 10 ms, non-volatile commands
//     refused meanwhile). The wipers' voltage, with the resistor string's nonlinearity, feeds
//     an ADC. Datasheets DS22264 (MCP443X/445X) and DS22265 (MCP444X/446X):
//     https://www.microchip.com/en-us/product/MCP4451, https://www.microchip.com/en-us/product/MCP4461
//   - ADS1115 (TI, 16-bit delta-sigma ADC): pointer, conversion and config registers,
//     single-shot conversions that take 1/data-rate on the chip's own (imprecise) oscillator,
//     the OS bit while converting, the multiplexer and the PGA's full scale, and noise.
//     https://www.ti.com/lit/ds/symlink/ads1115.pdf
//   - MCP23017 (Microchip, 16-bit I/O expander, BANK=0): IODIR, IPOL, GPPU, GPIO and OLAT with
//     sequential addressing; inputs are set by the test (buttons) and outputs read (lamps).
//     https://www.microchip.com/en-us/product/MCP23017
//
// A chip that also answers at other addresses (Aliased) gets every transaction sent there;
// what several chips send back meets on the bus as the AND of their bytes, as on the real
// open-drain wires.
//
// Faults are injected per address or for the whole bus: a NACK, a timeout, a stuck bus (every
// transaction times out until cleared) or a flaky bus (each transaction fails with a given
// probability, from a seeded generator). A failed transaction changes nothing in any chip.
// The bus counts transactions and bytes (address bytes included) and can print every
// transaction (a trace).
//
// Like net/http/httptest, the package is there to be driven from other packages: a simulated
// rig (drivers/rigdev.Simulate, hwbridge serve --simulate) uses its chips, its buses and the
// bus faults (Inject, SetStuck, ClearFaults: "hwbridge fault" asks a simulated bridge for them),
// and the rest of its fault injection and its look into the chips (PowerCycle, SetWiperLock,
// SetWriteProtect, Detach, Ground, Register, NVWrites, Brownouts, Travelled, ...) is for tests
// of the drivers and of the bridge.
//
// Time comes from a Clock: the wall clock for a simulated rig, a manual clock (NewManualClock)
// for tests, so that conversions, EEPROM cycles and servo travel never depend on how fast the
// test machine runs.
package i2csim
