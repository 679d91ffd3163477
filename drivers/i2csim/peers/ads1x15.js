// ads1x15.js SCENARIO: the npm package ads1x15 (a port of Adafruit's ADS1x15 library) reads
// single-ended channels of an ADS1115. SCENARIO is JSON: {"address": 72, "reads":
// [{"channel": 0, "pga": 4096, "sps": 860}, ...]}. Prints {"mv": [millivolts, ...]}.
'use strict';
const ADS1x15 = require('ads1x15');

const sc = JSON.parse(process.argv[2]);
const IC_ADS1115 = 0x01;
(async () => {
  const adc = new ADS1x15(IC_ADS1115, sc.address);
  await adc.openBus(1);
  const mv = [];
  for (const r of sc.reads) {
    mv.push(await adc.readADCSingleEnded(r.channel, r.pga, r.sps));
  }
  process.stdout.write(JSON.stringify({ mv }) + '\n');
})().catch((err) => {
  process.stderr.write('ads1x15: ' + (err && err.stack || err) + '\n');
  process.exit(1);
});
