package pca9685_test

import (
	"fmt"
	"log"
	"time"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/pca9685"
)

// Two servos on a simulated board: a frame moves both in one transaction.
func Example() {
	bus := i2csim.NewBus("1", nil, 1)
	board := i2csim.NewPCA9685(nil, 0)
	if err := bus.Attach(pca9685.I2CAddr, board); err != nil {
		log.Fatal(err)
	}
	d, err := pca9685.New(bus, &pca9685.Opts{Channels: []pca9685.Channel{
		{Index: 0},
		{Index: 1, Calibration: pca9685.Calibration{MinPulse: 600 * time.Microsecond, MaxPulse: 2400 * time.Microsecond, Reverse: true}},
	}})
	if err != nil {
		log.Fatal(err)
	}
	if err := d.SetPosition(0, 0.25); err != nil {
		log.Fatal(err)
	}
	if err := d.SetPosition(1, 0.25); err != nil {
		log.Fatal(err)
	}
	st, err := d.Flush()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d channels, %d transaction, %d bytes\n", st.Channels, st.Transactions, st.Bytes)
	fmt.Println(board.Pulse(0).Round(10*time.Microsecond), board.Pulse(1).Round(10*time.Microsecond))
	// Output:
	// 2 channels, 1 transaction, 10 bytes
	// 1.25ms 1.95ms
}

// On a Raspberry Pi: periph's host drivers and the header's bus.
func Example_host() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	bus, err := i2creg.Open("1")
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()
	d, err := pca9685.New(bus, &pca9685.Opts{Channels: []pca9685.Channel{{Index: 0}}, MaxSlewing: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := d.SetPosition(0, 0.5); err != nil {
		log.Fatal(err)
	}
	if _, err := d.Flush(); err != nil {
		log.Fatal(err)
	}
}
