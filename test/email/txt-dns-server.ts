// A DNS server of the tests' own on 127.0.0.1, so no query leaves the machine: the e-mail tests' zone for
// mailauth and for domain verification (mail-rig.ts), and the bench's stand-in for a local caching resolver
// (bench/workers/dns-resolver.ts). A module of its own so that the bench's worker does not load the SMTP and
// MIME libraries the rest of the rig needs.
import dns2 from 'dns2';

/** A UDP DNS server answering TXT queries from `records` (name → values); NXDOMAIN for anything else. */
export async function txtDnsServer(records: Map<string, string[]>) {
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = (q?.name ?? '').toLowerCase();
      asked.push(name);
      const values = q?.type === dns2.Packet.TYPE.TXT ? records.get(name) : undefined;
      if (values) for (const data of values) response.answers.push(dns2.Packet.createResourceFromQuestion(q!, { ttl: 1, data }));
      else response.header.rcode = 3; // NXDOMAIN
      void send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (server.addresses().udp as { port: number }).port;
  return { port, asked, close: () => server.close() };
}
