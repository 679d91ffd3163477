// preload.js (node --require): the drivers under test get our stand-in i2c-bus, and run on
// the simulated chips' clock.
//
//  - require('i2c-bus') from anywhere resolves to i2c-bus.js here (MARK1_I2C_BUS_STANDIN),
//    never to the real (native) package npm installed beside the drivers.
//  - setTimeout, setInterval and their clear functions are replaced by virtual timers: when
//    nothing else is pending (no I/O callback of the stand-in, no microtask), the earliest
//    timer fires after the Go side's clock has advanced by its delay ("sleep NS"). A timer of
//    d ms waits max(1, trunc(d)) ms, the least node's own timers wait, so a driver that waits
//    too little is caught however fast or slow this machine is.
'use strict';
const Module = require('module');
const standin = process.env.MARK1_I2C_BUS_STANDIN;
if (!standin) {
  throw new Error('preload.js: MARK1_I2C_BUS_STANDIN is not set');
}
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'i2c-bus') {
    return standin;
  }
  return resolve.call(this, request, ...rest);
};

const proto = require(standin)._protocol;
const realSetImmediate = setImmediate;
let now = 0; // virtual milliseconds
let seq = 0;
const timers = new Map();
let pumping = false;

function pump() {
  if (pumping) {
    return;
  }
  pumping = true;
  realSetImmediate(function tick() {
    if (proto.pending() > 0) {
      realSetImmediate(tick); // the stand-in's callbacks run first: they take no time
      return;
    }
    pumping = false;
    let next = null;
    for (const t of timers.values()) {
      if (next === null || t.due < next.due || (t.due === next.due && t.id < next.id)) {
        next = t;
      }
    }
    if (next === null) {
      return;
    }
    if (next.due > now) {
      proto.sleep(next.due - now);
      now = next.due;
    }
    if (next.interval) {
      next.due = now + next.interval;
    } else {
      timers.delete(next.id);
    }
    next.fn(...next.args);
    if (timers.size > 0) {
      pump();
    }
  });
}

function delayOf(ms) {
  ms = Number(ms);
  if (!(ms >= 1 && ms <= 2147483647)) {
    ms = 1;
  }
  return Math.trunc(ms);
}

class VirtualTimer {
  constructor(id) { this.id = id; }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
  refresh() { return this; }
  [Symbol.toPrimitive]() { return this.id; }
}

function add(fn, ms, args, repeat) {
  if (typeof fn !== 'function') {
    throw new TypeError('callback must be a function');
  }
  const d = delayOf(ms);
  const t = { id: ++seq, due: now + d, fn, args, interval: repeat ? d : 0 };
  timers.set(t.id, t);
  pump();
  return new VirtualTimer(t.id);
}

function clear(timer) {
  if (timer !== undefined && timer !== null) {
    timers.delete(typeof timer === 'object' ? timer.id : Number(timer));
  }
}

global.setTimeout = (fn, ms, ...args) => add(fn, ms, args, false);
global.setInterval = (fn, ms, ...args) => add(fn, ms, args, true);
global.clearTimeout = clear;
global.clearInterval = clear;
global.__mark1VirtualNow = () => now;
proto.onSettled(pump);
