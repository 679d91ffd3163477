// mcp23017.js SCENARIO: the npm package node-mcp23017 sets pin modes, writes outputs and reads
// inputs of an MCP23017. SCENARIO is JSON: {"address": 32, "modes": [[pin, "in"|"pullup"|"out"],
// ...], "writes": [[pin, 0|1], ...], "reads": [pin, ...]} (pins 0-15: GPA0-7, GPB0-7).
// Prints {"read": [true|false, ...]} in the order of "reads".
'use strict';
const MCP23017 = require('node-mcp23017');

const sc = JSON.parse(process.argv[2]);
const mcp = new MCP23017({ address: sc.address, device: 1, debug: false });
const mode = { in: mcp.INPUT, pullup: mcp.INPUT_PULLUP, out: mcp.OUTPUT };
for (const [pin, m] of sc.modes || []) {
  mcp.pinMode(pin, mode[m]);
}
for (const [pin, v] of sc.writes || []) {
  mcp.digitalWrite(pin, v);
}
const reads = sc.reads || [];
const got = new Array(reads.length);
let left = reads.length;
const finish = () => process.stdout.write(JSON.stringify({ read: got }) + '\n');
if (left === 0) {
  finish();
}
reads.forEach((pin, i) => {
  mcp.digitalRead(pin, (p, err, value) => {
    if (err) {
      process.stderr.write('mcp23017: ' + err + '\n');
      process.exit(1);
    }
    got[i] = value;
    if (--left === 0) {
      finish();
    }
  });
});
