// i2c-bus.js: a stand-in for the npm package i2c-bus (5.x API), for drivers run against
// mark1's simulated chips. Every call becomes one request on file descriptor 3 and one reply
// on 4 (see peers.go for the protocol); the Go side does what Linux's i2c-dev would do on the
// simulated bus. The synchronous forms block on the reply; the callback forms do the same
// work and call back on a later turn of the event loop, as the real package does; the
// promise forms resolve with what the real package resolves with.
'use strict';
const fs = require('fs');

const REQ = 3;
const REP = 4;
const errnoNames = { 2: 'ENOENT', 9: 'EBADF', 22: 'EINVAL', 110: 'ETIMEDOUT', 121: 'EREMOTEIO' };
let pending = 0;
let settled = () => {};
let carry = '';
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function request(line) {
  fs.writeSync(REQ, line + '\n');
  const buf = Buffer.alloc(4096);
  for (;;) {
    const nl = carry.indexOf('\n');
    if (nl >= 0) {
      const reply = carry.slice(0, nl);
      carry = carry.slice(nl + 1);
      return reply;
    }
    let n;
    try {
      n = fs.readSync(REP, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') {
        Atomics.wait(sleeper, 0, 0, 1);
        continue;
      }
      throw e;
    }
    if (n === 0) {
      throw new Error('i2c-bus stand-in: the Go side closed the connection');
    }
    carry += buf.toString('latin1', 0, n);
  }
}

// call sends a request and returns the reply's value (a string, maybe empty), or throws an
// Error shaped like the real package's (errno, code, syscall).
function call(...fields) {
  const reply = request(fields.join(' '));
  if (reply === 'ok') {
    return '';
  }
  if (reply.startsWith('ok ')) {
    return reply.slice(3);
  }
  const m = /^err (\d+) (.*)$/.exec(reply);
  if (!m) {
    throw new Error('i2c-bus stand-in: bad reply ' + JSON.stringify(reply));
  }
  const errno = Number(m[1]);
  const code = errnoNames[errno] || 'EIO';
  const err = new Error(code + ', ' + m[2]);
  err.errno = errno;
  err.code = code;
  err.syscall = 'ioctl';
  throw err;
}

function checkAddr(addr) {
  if (!Number.isInteger(addr) || addr < 0 || addr > 0x7f) {
    throw new Error('Invalid I2C address ' + addr);
  }
}

function checkByte(name, v) {
  if (!Number.isInteger(v) || v < 0 || v > 0xff) {
    throw new Error('Invalid ' + name + ' ' + v);
  }
}

function checkLength(name, length, buffer, max) {
  if (!Number.isInteger(length) || length < 0 || length > max) {
    throw new Error('Invalid ' + name + ' length ' + length);
  }
  if (!Buffer.isBuffer(buffer) || buffer.length < length) {
    throw new Error('Invalid buffer');
  }
}

function hexOf(buffer, length) {
  return length === 0 ? '-' : buffer.subarray(0, length).toString('hex');
}

function fill(buffer, hex) {
  if (hex === '-' || hex === '') {
    return 0;
  }
  return Buffer.from(hex, 'hex').copy(buffer);
}

// later calls cb(...) on a later turn of the event loop (setImmediate is not virtualised).
function later(cb, ...args) {
  pending++;
  setImmediate(() => {
    pending--;
    try {
      cb(...args);
    } finally {
      settled();
    }
  });
}

// async wraps a synchronous method as the real package's callback form: cb(err, ...results).
function async(fn, nresults) {
  return function (...args) {
    const cb = args.pop();
    if (typeof cb !== 'function') {
      throw new Error('Invalid callback');
    }
    let results;
    try {
      results = fn.apply(this, args);
    } catch (err) {
      later(cb, err);
      return this;
    }
    if (nresults === 0) {
      later(cb, null);
    } else if (nresults === 1) {
      later(cb, null, results);
    } else {
      later(cb, null, ...results);
    }
    return this;
  };
}

class Bus {
  constructor(busNumber) {
    this._busNumber = busNumber;
    this._open = false;
  }

  _openSync() {
    call('open', this._busNumber);
    this._open = true;
  }

  _check() {
    if (!this._open) {
      throw new Error('Bus is closed');
    }
  }

  closeSync() { this._open = false; }
  i2cFuncsSync() { return { i2c: true, smbusQuick: true, smbusReceiveByte: true, smbusSendByte: true, smbusReadByte: true, smbusWriteByte: true, smbusReadWord: true, smbusWriteWord: true, smbusReadI2cBlock: true, smbusWriteI2cBlock: true }; }

  scanSync(startAddr = 0x03, endAddr = 0x77) {
    if (arguments.length === 1) {
      endAddr = startAddr;
    }
    const found = [];
    for (let a = startAddr; a <= endAddr; a++) {
      try {
        call('quick', a);
        found.push(a);
      } catch (e) { /* nothing there */ }
    }
    return found;
  }

  i2cReadSync(addr, length, buffer) {
    this._check(); checkAddr(addr); checkLength('read', length, buffer, 0xffff);
    return fill(buffer, call('i2c', addr, '-', length));
  }

  i2cWriteSync(addr, length, buffer) {
    this._check(); checkAddr(addr); checkLength('write', length, buffer, 0xffff);
    call('i2c', addr, hexOf(buffer, length), 0);
    return length;
  }

  readByteSync(addr, cmd) {
    this._check(); checkAddr(addr); checkByte('command', cmd);
    return Number(call('rb', addr, cmd));
  }

  readWordSync(addr, cmd) {
    this._check(); checkAddr(addr); checkByte('command', cmd);
    return Number(call('rw', addr, cmd));
  }

  readI2cBlockSync(addr, cmd, length, buffer) {
    this._check(); checkAddr(addr); checkByte('command', cmd); checkLength('block', length, buffer, 32);
    if (length === 0) {
      return 0;
    }
    return fill(buffer, call('rib', addr, cmd, length));
  }

  receiveByteSync(addr) {
    this._check(); checkAddr(addr);
    return Number(call('recv', addr));
  }

  sendByteSync(addr, byte) {
    this._check(); checkAddr(addr); checkByte('byte', byte);
    call('sb', addr, byte);
  }

  writeByteSync(addr, cmd, byte) {
    this._check(); checkAddr(addr); checkByte('command', cmd); checkByte('byte', byte);
    call('wb', addr, cmd, byte);
  }

  writeWordSync(addr, cmd, word) {
    this._check(); checkAddr(addr); checkByte('command', cmd);
    if (!Number.isInteger(word) || word < 0 || word > 0xffff) {
      throw new Error('Invalid word ' + word);
    }
    call('ww', addr, cmd, word);
  }

  writeQuickSync(addr, bit) {
    this._check(); checkAddr(addr);
    call('quick', addr);
  }

  writeI2cBlockSync(addr, cmd, length, buffer) {
    this._check(); checkAddr(addr); checkByte('command', cmd); checkLength('block', length, buffer, 32);
    call('wib', addr, cmd, hexOf(buffer, length));
    return length;
  }

  promisifiedBus() { return new PromisifiedBus(this); }
}

Bus.prototype.close = async(function () { this.closeSync(); }, 0);
Bus.prototype.i2cFuncs = async(function () { return this.i2cFuncsSync(); }, 1);
Bus.prototype.scan = async(function (...a) { return this.scanSync(...a); }, 1);
Bus.prototype.i2cRead = async(function (addr, length, buffer) { return [this.i2cReadSync(addr, length, buffer), buffer]; }, 2);
Bus.prototype.i2cWrite = async(function (addr, length, buffer) { return [this.i2cWriteSync(addr, length, buffer), buffer]; }, 2);
Bus.prototype.readByte = async(function (addr, cmd) { return this.readByteSync(addr, cmd); }, 1);
Bus.prototype.readWord = async(function (addr, cmd) { return this.readWordSync(addr, cmd); }, 1);
Bus.prototype.readI2cBlock = async(function (addr, cmd, length, buffer) { return [this.readI2cBlockSync(addr, cmd, length, buffer), buffer]; }, 2);
Bus.prototype.receiveByte = async(function (addr) { return this.receiveByteSync(addr); }, 1);
Bus.prototype.sendByte = async(function (addr, byte) { this.sendByteSync(addr, byte); }, 0);
Bus.prototype.writeByte = async(function (addr, cmd, byte) { this.writeByteSync(addr, cmd, byte); }, 0);
Bus.prototype.writeWord = async(function (addr, cmd, word) { this.writeWordSync(addr, cmd, word); }, 0);
Bus.prototype.writeQuick = async(function (addr, bit) { this.writeQuickSync(addr, bit); }, 0);
Bus.prototype.writeI2cBlock = async(function (addr, cmd, length, buffer) { return [this.writeI2cBlockSync(addr, cmd, length, buffer), buffer]; }, 2);

// PromisifiedBus is what openPromisified resolves with.
class PromisifiedBus {
  constructor(bus) { this._bus = bus; }
  bus() { return this._bus; }
  _do(fn) {
    return new Promise((resolve, reject) => {
      try {
        resolve(fn());
      } catch (err) {
        reject(err);
      }
    });
  }
  close() { return this._do(() => this._bus.closeSync()); }
  i2cFuncs() { return this._do(() => this._bus.i2cFuncsSync()); }
  scan(...a) { return this._do(() => this._bus.scanSync(...a)); }
  i2cRead(addr, length, buffer) { return this._do(() => ({ bytesRead: this._bus.i2cReadSync(addr, length, buffer), buffer })); }
  i2cWrite(addr, length, buffer) { return this._do(() => ({ bytesWritten: this._bus.i2cWriteSync(addr, length, buffer), buffer })); }
  readByte(addr, cmd) { return this._do(() => this._bus.readByteSync(addr, cmd)); }
  readWord(addr, cmd) { return this._do(() => this._bus.readWordSync(addr, cmd)); }
  readI2cBlock(addr, cmd, length, buffer) { return this._do(() => ({ bytesRead: this._bus.readI2cBlockSync(addr, cmd, length, buffer), buffer })); }
  receiveByte(addr) { return this._do(() => this._bus.receiveByteSync(addr)); }
  sendByte(addr, byte) { return this._do(() => this._bus.sendByteSync(addr, byte)); }
  writeByte(addr, cmd, byte) { return this._do(() => this._bus.writeByteSync(addr, cmd, byte)); }
  writeWord(addr, cmd, word) { return this._do(() => this._bus.writeWordSync(addr, cmd, word)); }
  writeQuick(addr, bit) { return this._do(() => this._bus.writeQuickSync(addr, bit)); }
  writeI2cBlock(addr, cmd, length, buffer) { return this._do(() => ({ bytesWritten: this._bus.writeI2cBlockSync(addr, cmd, length, buffer), buffer })); }
}

// checkBusNumber refuses what the real package refuses.
function checkBusNumber(busNumber) {
  if (!Number.isInteger(busNumber) || busNumber < 0) {
    throw new Error('Invalid I2C bus number ' + busNumber);
  }
}

function openSync(busNumber, options) {
  checkBusNumber(busNumber);
  const bus = new Bus(busNumber);
  bus._openSync();
  return bus;
}

function open(busNumber, options, cb) {
  if (typeof options === 'function') {
    cb = options;
  }
  checkBusNumber(busNumber);
  const bus = new Bus(busNumber);
  try {
    bus._openSync();
    later(cb, null);
  } catch (err) {
    later(cb, err);
  }
  return bus;
}

function openPromisified(busNumber, options) {
  return new Promise((resolve, reject) => {
    try {
      resolve(openSync(busNumber, options).promisifiedBus());
    } catch (err) {
      reject(err);
    }
  });
}

module.exports = {
  open,
  openSync,
  openPromisified,
  Bus,
  PromisifiedBus,
  _protocol: {
    pending: () => pending,
    onSettled: (fn) => { settled = fn; },
    sleep: (ms) => { call('sleep', Math.round(ms * 1e6)); },
    call,
  },
};
