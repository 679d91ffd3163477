// Package mcp44x1 drives the Microchip MCP4451 and MCP4461 quad digital potentiometers over
// I²C: four 257-step resistor strings (wiper 0 at terminal B, 256 at terminal A), in the
// mark1 rig the weights of a small machine run in the loop.
//
// The MCP4451 has volatile wipers only (mid-scale at power-up); the MCP4461 also has
// non-volatile wipers in EEPROM, loaded into the volatile ones at power-up. The EEPROM wears
// out and a write cycle takes up to 10 ms, so this driver never writes a non-volatile wiper on
// a wiper change: SaveNV writes one only when asked, and only when its value differs from the
// stored one and at most once per Opts.NVInterval (debounced), or at shutdown.
//
// # Protocol (datasheet section 7)
//
// Every command starts with a command byte: AD3..AD0 (the register address), C1 C0 (00 write,
// 01 increment, 10 decrement, 11 read) and D9 D8 (the data's top bits). A write is 16 bits
// (the command byte and D7..D0), an increment or decrement 8 bits, and several commands may
// follow one another in one transaction. A read sends the read command, then reads two bytes
// (D8 in the first byte's lowest bit, D7..D0 in the second); this driver ends the command
// with a STOP and reads in a new transaction, which the datasheet's "random read" allows and
// which works on buses that mishandle repeated starts (Opts.RepeatedStart uses one
// transaction instead).
//
// Register map: wipers 0-3 at 00h, 01h, 06h, 07h; non-volatile wipers at 02h, 03h, 08h, 09h
// (MCP4461 only); TCON0 (terminals of pots 0 and 1) at 04h and TCON1 (pots 2 and 3) at 0Ah;
// STATUS at 05h. On the MCP4461 STATUS bits D8, D7 and D1 are reserved and read 1 (DS22265
// register 4-1): New checks them to know the chip is there and sane. The MCP4451 is a
// different sheet (DS22264) with no WiperLock, WP or EEPROM: New does not read its STATUS.
// TCON's D8 is reserved: written 0 (as ESPHome, Klipper and Smoothieware write it) and never
// compared. TCON is volatile and comes back "all terminals connected" at power-up while the
// MCP4461's wipers come back from EEPROM, so New always writes TCON, and Check finds a chip
// that lost power (TCON's terminal bits or wipers not as written) so that the caller
// restores it. A read (command, then data in another transaction) holds the Dev's lock
// throughout: any command in between would move the chip's address pointer.
//
// datasheet_test.go holds the sheets' tables, typed from the sheets and other projects'
// drivers with their sources, and checks this package and the simulator against them.
//
// The 7-bit addresses are 0x2C-0x2F (pins A1 A0); the 8-bit forms 0x58-0x5F that some
// firmware uses are refused with a hint.
//
// # Datasheets
//
// MCP443X/445X (volatile), DS22264: https://www.microchip.com/en-us/product/MCP4451
//
// MCP444X/446X (non-volatile), DS22265: https://www.microchip.com/en-us/product/MCP4461
package mcp44x1
