// Stopping the HTTP server (src/platform/http-stop.ts), seen from its clients' sockets: a connection that sent
// nothing and one idle after its answer are closed at once, one whose request is in flight gets its whole answer
// and is closed after it, and the stop ends with the last of them, not at its bound (set here past the test's
// timeout, so a connection left open fails the test instead of being cut by the bound).
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { stopper } from '../../src/platform/http-stop.js';

/** A raw client connection, with everything it received and whether the server closed it. */
async function connect(port: number): Promise<{ socket: net.Socket; received: () => string; ended: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
  const ended = once(socket, 'end').then(() => undefined);
  return { socket, received: () => text, ended };
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n`;

describe('platform: stopping the HTTP server', function () {
  this.timeout(30_000);

  it('closes a connection that sent nothing and one idle after its answer at once, and one in flight after its whole answer', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') {
        arrived();
        void held.then(() => res.end('slow answer'));
      } else res.end('quick answer');
    });
    server.keepAliveTimeout = 600_000;
    const stop = stopper(server, 600_000);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const silent = await connect(port);
      const idle = await connect(port);
      idle.socket.write(GET('/quick'));
      while (!idle.received().includes('quick answer')) await once(idle.socket, 'data');
      const busy = await connect(port);
      busy.socket.write(GET('/slow'));
      await slowArrived;

      const stopped = stop.stop();
      await Promise.all([once(silent.socket, 'close'), once(idle.socket, 'close')]);
      expect(silent.received(), 'nothing was sent to the silent one').to.equal('');
      expect(busy.socket.destroyed, 'the one in flight is still open').to.equal(false);
      expect(busy.received()).to.equal('');

      release();
      await busy.ended;
      expect(busy.received()).to.match(/^HTTP\/1\.1 200 OK\r\n/);
      expect(busy.received().endsWith('slow answer'), busy.received()).to.equal(true);
      await stopped;
      expect(server.listening).to.equal(false);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
