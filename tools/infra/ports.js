// Ports for PostgreSQL and Redis. Neither can bind port 0 and say which port it got, nor serve a
// listening socket handed to it (what the test servers do: libs/testing/src/server-process.ts). So
// their launchers try a port, try another when the server reports the port taken, and accept only
// the server they started as the one answering there.
'use strict';
const { randomInt } = require('node:crypto');

// Below Linux's ephemeral range (32768-60999): the ports that port-0 binds and outgoing
// connections take come from that range, so they do not take a port drawn here, neither before
// the server binds it nor between a stop and a restart of the same server on it.
const DRAWN = { low: 20_000, high: 32_767 };
const ATTEMPTS = 20;

/** A port to try, drawn at random below the ephemeral range. */
function drawPort() {
  return randomInt(DRAWN.low, DRAWN.high + 1);
}

/** An error saying the server could not bind its port; onSomePort tries another one. */
class PortTaken extends Error {}

/**
 * Resolves with `start(port)`: on `port` when given, else on drawn ports until a start does not
 * fail with PortTaken.
 */
async function onSomePort(port, start) {
  if (port) return start(port);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(drawPort());
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt >= ATTEMPTS) throw err;
    }
  }
}

module.exports = { onSomePort, PortTaken };
