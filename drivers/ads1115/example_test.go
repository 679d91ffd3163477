package ads1115_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/mark1-perceptron/mark1/drivers/ads1115"
	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

// A pot's wiper read back by a simulated ADS1115.
func Example() {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	adc := i2csim.NewADS1115(clk, 1)
	adc.Noise = 0
	adc.SetInput(0, func() float64 { return 1.65 })
	if err := bus.Attach(0x48, adc); err != nil {
		log.Fatal(err)
	}
	d, err := ads1115.New(bus, &ads1115.Opts{Clock: clk})
	if err != nil {
		log.Fatal(err)
	}
	v, err := d.Read(0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v)
	// Output: 1.650V
}

// On a Raspberry Pi.
func Example_host() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	bus, err := i2creg.Open("1")
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()
	d, err := ads1115.New(bus, nil)
	if err != nil {
		log.Fatal(err)
	}
	v, err := d.Read(2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v)
}
