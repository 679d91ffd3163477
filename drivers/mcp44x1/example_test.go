package mcp44x1_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/mcp44x1"
)

// Four wipers set in one transaction on a simulated MCP4451: a step of one is an 8-bit
// increment, a jump a 16-bit write.
func Example() {
	bus := i2csim.NewBus("1", nil, 1)
	chip := i2csim.NewMCP44x1(nil, false, 1)
	if err := bus.Attach(0x2C, chip); err != nil {
		log.Fatal(err)
	}
	d, err := mcp44x1.New(bus, &mcp44x1.Opts{Addr: 0x2C})
	if err != nil {
		log.Fatal(err)
	}
	before := bus.Stats().Bytes
	if err := d.SetWipers([4]int{129, 127, 200, 128}, 0xF); err != nil {
		log.Fatal(err)
	}
	fmt.Println(chip.Wiper(0), chip.Wiper(1), chip.Wiper(2), chip.Wiper(3), bus.Stats().Bytes-before, "bytes")
	// Output: 129 127 200 128 5 bytes
}

// On a Raspberry Pi, an MCP4461 at 0x2D (A0 high): its wipers saved to EEPROM at shutdown.
func Example_host() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	bus, err := i2creg.Open("1")
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()
	d, err := mcp44x1.New(bus, &mcp44x1.Opts{Addr: 0x2D, Variant: mcp44x1.MCP4461})
	if err != nil {
		log.Fatal(err)
	}
	if err := d.SetWiper(0, 140); err != nil {
		log.Fatal(err)
	}
	if _, err := d.SaveNV(true); err != nil {
		log.Fatal(err)
	}
}
