// The local resolver of the e-mail rows: production runs one (a caching
// resolver beside the service, or the host's), which answers a name it has
// asked before from its cache, in well under a millisecond. The bench's
// senders write from customer.invalid, a name with no records; this server
// (the e-mail tests' own, test/email/txt-dns-server.ts) answers every question
// NXDOMAIN, as such a resolver would once it holds that answer. Without it the
// service asks the machine's resolver, and the row measures how fast that one
// is (12–14 ms an answer under load here, against 0.5 ms idle). In a process
// of its own: its answers are not held up by the load generator's event loop.
// Ready with its port; DNS_SERVERS=127.0.0.1:<port>.
import { daemon } from '../lib/child.js';
import { txtDnsServer } from '../../test/email/txt-dns-server.js';

daemon<Record<string, never>, { port: number }>(async () => {
  const server = await txtDnsServer(new Map());
  return {
    ready: { port: server.port },
    // How many questions it answered: the row shows that the service asked it.
    handle: async () => server.asked.length,
    async stop() {
      await server.close();
      return server.asked.length;
    },
  };
});
