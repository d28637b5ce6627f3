// Where a demo server listens. Tests hand it a socket already listening on a port they chose
// (README, "Processes and ports"): a child process inherits it as the descriptor LISTEN_FD names,
// a server in the test's own process takes the listening server object over.
'use strict';

/** The listen target of a demo's main: the socket inherited as LISTEN_FD, else `port`. */
function mainListenTarget(port) {
  const fd = process.env.LISTEN_FD;
  return fd ? { fd: Number(fd) } : port;
}

/**
 * Listens on `target`: a port on `host`, an inherited descriptor (`{ fd }`) or a listening server
 * handed over. Resolves with the port it serves.
 */
function listenOn(server, target, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve(server.address().port);
    };
    if (typeof target === 'number') server.listen(target, host, listening);
    else server.listen(target, listening);
  });
}

module.exports = { mainListenTarget, listenOn };
