// pca9685.js SCENARIO: the npm package pca9685 (101100/pca9685) sets up a board and sets
// pulses. SCENARIO is JSON: {"address": 64, "frequency": 50, "pulses": [[channel, us], ...]}.
// Prints {"done": true} once every command has reached the bus.
'use strict';
const i2cBus = require('i2c-bus');
const { Pca9685Driver } = require('pca9685');

const sc = JSON.parse(process.argv[2]);
const fail = (err) => {
  process.stderr.write('pca9685: ' + (err && err.stack || err) + '\n');
  process.exit(1);
};
const pwm = new Pca9685Driver({ i2c: i2cBus.openSync(1), address: sc.address, frequency: sc.frequency }, (err) => {
  if (err) {
    fail(err);
  }
  let left = sc.pulses.length;
  const done = (err) => {
    if (err) {
      fail(err);
    }
    if (--left <= 0) {
      process.stdout.write(JSON.stringify({ done: true }) + '\n');
    }
  };
  if (left === 0) {
    done();
  }
  for (const [channel, us] of sc.pulses) {
    pwm.setPulseLength(channel, us, 0, done);
  }
});
