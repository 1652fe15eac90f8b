// The DNS the e-mail edge asks: mailauth's SPF, DKIM and DMARC look-ups, and the
// TXT record that proves a workspace owns an e-mail domain. The system resolver,
// or the servers of DNS_SERVERS (`host:port,…`), so an operator can point the
// service at a resolver of its own and a test can answer from a DNS server it runs.
import { Resolver } from 'node:dns/promises';

/** dns.promises.resolve's contract (mailauth's DNSResolver): TXT answers are arrays of strings; a miss throws ENOTFOUND or ENODATA. */
export type DnsResolve = (name: string, rrtype: string) => Promise<string[][] | string[]>;

/**
 * A resolver set in place of every one this module makes, for tests in this process that answer from a zone of
 * their own (test/email/mail-rig.ts: zoneResolver). Unset: the resolver of the configuration answers.
 */
export const mailDns: { resolver?: DnsResolve } = {};

/** The resolver of DNS_SERVERS (null: the system's), behind the test override. */
export function dnsResolver(servers: readonly string[] | null): DnsResolve {
  const resolver = new Resolver({ timeout: 5_000, tries: 2 });
  if (servers) resolver.setServers([...servers]);
  return (name, rrtype) => (mailDns.resolver ? mailDns.resolver(name, rrtype) : (resolver.resolve(name, rrtype) as Promise<string[][] | string[]>));
}

/** The TXT records at a name, each joined from its strings; none when the name or the record does not exist. */
export async function txtRecords(resolve: DnsResolve, name: string): Promise<string[]> {
  try {
    const answers = await resolve(name, 'TXT');
    return answers.map((a) => (Array.isArray(a) ? a.join('') : a));
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw e;
  }
}
