// Where the service may post (webhook endpoints, channel webhook_url). A URL
// that names or resolves to a private, loopback, link-local, unspecified,
// CGNAT, multicast or reserved address is refused, so a tenant cannot use the
// service to reach its own network (cloud metadata at 169.254.169.254, admin
// ports on 127.0.0.1). The check runs at save time and again at connect time,
// on the very addresses the socket will use, so a DNS answer that changes
// after the save (rebinding) is caught too.
//
// Operators open holes with WEBHOOK_ALLOWLIST, comma separated; each entry is
// an exact hostname (`hooks.internal`), an IP (`127.0.0.1`, `::1`) or a CIDR
// (`10.1.0.0/16`, `fd00::/8`). A hostname entry trusts whatever it resolves to.
import dns from 'node:dns';
import net from 'node:net';
import { BadRequest } from '../platform/errors.js';

interface Range {
  reason: string;
  list: net.BlockList;
}

function range(reason: string, subnets: [string, number, 'ipv4' | 'ipv6'][]): Range {
  const list = new net.BlockList();
  for (const [addr, prefix, type] of subnets) list.addSubnet(addr, prefix, type);
  return { reason, list };
}

// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) match the IPv4 rules: BlockList checks them that way.
const FORBIDDEN: Range[] = [
  range('an unspecified address', [
    ['0.0.0.0', 8, 'ipv4'],
    ['::', 128, 'ipv6'],
  ]),
  range('a loopback address', [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ]),
  range('a private address', [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
  ]),
  range('a link-local address', [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ]),
  range('a shared (CGNAT) address', [['100.64.0.0', 10, 'ipv4']]),
  range('a unique local address', [['fc00::', 7, 'ipv6']]),
  range('a multicast address', [
    ['224.0.0.0', 4, 'ipv4'],
    ['ff00::', 8, 'ipv6'],
  ]),
  range('a reserved address', [
    ['192.0.0.0', 24, 'ipv4'],
    ['198.18.0.0', 15, 'ipv4'],
    ['240.0.0.0', 4, 'ipv4'],
  ]),
];

/** NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits; judge that address. */
function embeddedIpv4(address: string): string | null {
  const m = /^64:ff9b::(?:([0-9a-f]{1,4}):([0-9a-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/i.exec(address);
  if (!m) return null;
  if (m[3]) return m[3];
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

export class UrlRefused extends Error {
  constructor(
    readonly code: 'webhook_url_invalid' | 'webhook_url_forbidden' | 'webhook_url_unresolvable',
    message: string,
  ) {
    super(message);
  }
}

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
const normalizeHost = (host: string) => stripBrackets(host.toLowerCase()).replace(/\.$/, '');

export class UrlPolicy {
  private readonly hosts = new Set<string>();
  private readonly allowed = new net.BlockList();

  /** Throws on a malformed allowlist entry, so a typo stops the service at start rather than opening nothing. */
  constructor(
    allowlist: readonly string[],
    private readonly lookupAll: LookupAll = systemLookup,
  ) {
    for (const raw of allowlist) {
      const entry = normalizeHost(raw.trim());
      if (!entry) continue;
      const [addr, prefix, extra] = entry.split('/');
      const type = net.isIP(addr!);
      if (prefix !== undefined) {
        const bits = Number(prefix);
        if (!type || extra !== undefined || !/^\d+$/.test(prefix) || bits > (type === 4 ? 32 : 128)) {
          throw new Error(`WEBHOOK_ALLOWLIST entry "${raw}" is not a valid CIDR`);
        }
        this.allowed.addSubnet(addr!, bits, type === 4 ? 'ipv4' : 'ipv6');
      } else if (type) {
        this.allowed.addAddress(addr!, type === 4 ? 'ipv4' : 'ipv6');
      } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(entry)) {
        this.hosts.add(entry);
      } else {
        throw new Error(`WEBHOOK_ALLOWLIST entry "${raw}" is neither a hostname, an IP nor a CIDR`);
      }
    }
  }

  /** Why `address` may not be contacted, or null when it may. */
  refusal(address: string): string | null {
    const type = net.isIP(address);
    if (!type) return `${address} is not an IP address`;
    const family = type === 4 ? 'ipv4' : 'ipv6';
    if (this.allowed.check(address, family)) return null;
    const v4 = type === 6 ? embeddedIpv4(address) : null;
    if (v4) return this.refusal(v4);
    for (const r of FORBIDDEN) if (r.list.check(address, family)) return `${address} is ${r.reason}`;
    return null;
  }

  /** Parses and checks the form of a URL; throws UrlRefused. */
  parse(url: string): URL {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UrlRefused('webhook_url_invalid', 'The URL is not valid.');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UrlRefused('webhook_url_invalid', 'The URL must use http or https.');
    if (u.username || u.password) throw new UrlRefused('webhook_url_invalid', 'The URL must not carry credentials.');
    if (!u.hostname) throw new UrlRefused('webhook_url_invalid', 'The URL has no host.');
    return u;
  }

  hostAllowlisted(u: URL): boolean {
    return this.hosts.has(normalizeHost(u.hostname));
  }

  /** For routes saving a destination: the same check as at connect time, as a 400 on `field`. */
  async requireAllowed(url: string, field: string): Promise<void> {
    try {
      await this.resolve(url);
    } catch (e) {
      if (e instanceof UrlRefused) throw new BadRequest(e.code, e.message, field);
      throw e;
    }
  }

  /** Resolves the URL's host and returns the addresses a connection may use; throws UrlRefused when any is forbidden. */
  async resolve(url: string | URL): Promise<{ address: string; family: number }[]> {
    const u = typeof url === 'string' ? this.parse(url) : url;
    const host = normalizeHost(u.hostname);
    const trusted = this.hosts.has(host);
    const type = net.isIP(host);
    let addresses: { address: string; family: number }[];
    if (type) addresses = [{ address: host, family: type }];
    else {
      try {
        addresses = await this.lookupAll(host);
      } catch (e) {
        throw new UrlRefused('webhook_url_unresolvable', `The host ${host} does not resolve (${(e as { code?: string }).code ?? 'lookup failed'}).`);
      }
      if (addresses.length === 0) throw new UrlRefused('webhook_url_unresolvable', `The host ${host} does not resolve.`);
    }
    if (trusted) return addresses;
    // Every answer must pass, not just one: a mixed answer is how rebinding sneaks a private address in.
    for (const a of addresses) {
      const why = this.refusal(a.address);
      if (why) throw new UrlRefused('webhook_url_forbidden', `The destination is not allowed: ${why}.`);
    }
    return addresses;
  }
}
