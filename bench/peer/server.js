// boardgame.io's own server with the bench vote game, on a loopback port:
//   node server.js PORT
// prints "ready PORT" once it listens; stops on SIGTERM or SIGINT.
'use strict';

// A peer runs as it would be deployed: production mode (no per-move dev checks or logs).
process.env.NODE_ENV = process.env.NODE_ENV || 'production';

const { Server, Origins } = require('boardgame.io/server');
const { VoteGame } = require('./vote');

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error('usage: node server.js PORT');
  process.exit(2);
}

const server = Server({ games: [VoteGame], origins: [Origins.LOCALHOST] });

// Server.run() listens on every interface and takes no host; listen on loopback only.
// (koa-socket-2 has replaced app.listen by then, so this wraps the real one.)
const listen = server.app.listen;
server.app.listen = (listenPort, callback) => listen.call(server.app, listenPort, '127.0.0.1', callback);

server
  .run(port)
  .then((servers) => {
    console.log(`ready ${port}`);
    const stop = () => {
      server.kill(servers);
      process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
