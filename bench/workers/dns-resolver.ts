// The local resolver of the e-mail rows: production runs one (a caching
// resolver beside the service, or the host's), which answers a name it has
// asked before from its cache, in well under a millisecond. The bench's
// senders write from customer.invalid, a name with no records; this server
// answers every question NXDOMAIN, as such a resolver would once it holds that
// answer. Without it the service asks the machine's resolver, and the row
// measures how fast that one is (12–14 ms an answer under load here, against
// 0.5 ms idle). In a process of its own: its answers are not held up by the
// load generator's event loop. Ready with its port; DNS_SERVERS=127.0.0.1:<port>.
import dns2 from 'dns2';
import { daemon } from '../lib/child.js';

daemon<Record<string, never>, { port: number }>(async () => {
  let asked = 0;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      asked++;
      const response = dns2.Packet.createResponseFromRequest(request);
      response.header.rcode = 3; // NXDOMAIN
      void send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (server.addresses().udp as { port: number }).port;
  return {
    ready: { port },
    // How many questions it answered: the row shows the service asked it.
    handle: async () => asked,
    async stop() {
      await server.close();
      return asked;
    },
  };
});
