// Stopping an HTTP server without waiting on its clients. server.close() stops accepting and closes the
// connections that sit idle between requests, but two kinds it leaves open until they time out: a connection
// that has sent nothing yet (Node counts it as a request begun, for its headers timeout), and a keep-alive
// connection whose request was in flight, which stays open after its answer. A process stopping for a rolling
// restart would wait out each of them (the service's 10 s bound); a client cut before it sent anything, or
// after its answer, loses nothing and reconnects to another process.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Stopper {
  /** Stops accepting, closes every connection with no request in flight, and each other one once its answer is sent. */
  stop(): Promise<void>;
}

/**
 * Tracks `server`'s connections and the requests in flight on each: a count per connection, kept by one listener
 * per connection and one per request (no Node internals read). Past `boundMs` after stop() every connection
 * left is cut.
 */
export function stopper(server: Server, boundMs: number): Stopper {
  const inFlight = new Map<Socket, number>();
  let stopping = false;
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // Ahead of the app's listener: counted before anything can answer it, so its 'finish' is never missed.
  server.prependListener('request', (req, res: ServerResponse) => {
    const socket = req.socket;
    // Pipelined requests count each (Node answers them in turn): the connection closes after the last answer.
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('finish', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (stopping && left === 0) socket.end();
    });
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        server.close(() => resolve());
        // As server.close() does with the idle ones: nothing was asked on these, or nothing is left to answer.
        for (const [socket, requests] of inFlight) if (requests === 0) socket.destroy();
        setTimeout(() => server.closeAllConnections(), boundMs).unref();
      }),
  };
}
