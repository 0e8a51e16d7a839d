import ipaddr from 'ipaddr.js';
import { LookupAddress, LookupOptions, lookup as dnsLookup } from 'node:dns';
import type { Socket, TcpNetConnectOpts } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * IPv6 ranges whose addresses carry an IPv4 address inside them, so that a connection to one may reach the
 * IPv4 address (through the host's stack, a NAT64 gateway or a tunnel): `::a.b.c.d` (IPv4-compatible, which
 * also holds `::` and `::1`), `::ffff:a.b.c.d` (IPv4-mapped), `::ffff:0:a.b.c.d` (SIIT), NAT64's
 * `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4's `2002::/16` and Teredo's `2001::/32`. A webhook target is
 * refused in all of them, whatever IPv4 address they hold: a public one has its own IPv4 form.
 */
const EMBEDDING_IPV4 = new BlockList();
for (const [prefix, bits] of [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
] as const) {
  EMBEDDING_IPV4.addSubnet(prefix, bits, 'ipv6');
}

/**
 * Whether a webhook may connect to this IP address: a public unicast address (by ipaddr.js's ranges, as the
 * filtering agent decides it: no private, loopback, link-local, shared, reserved or metadata address), and for
 * IPv6 none that embeds an IPv4 address. The one decision, at save time (an address typed in the URL) and at
 * connect time (that address, or every address a name resolves to).
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && EMBEDDING_IPV4.check(address, 'ipv6')) return false;
  return ipaddr.parse(address).range() === 'unicast';
}

/** The host of a URL as an IP address (`[::1]` → `::1`), or undefined for a name. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : undefined;
}

/** Worded as the filtering agent words its refusals, so the delivery log shows the gym the same sentence. */
function refusal(address: string, host?: string): Error {
  return new Error(
    `DNS lookup ${address}(host:${host ?? address}) is not allowed. Because, it is not a public address.`,
  );
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** `lookup` (dns.lookup unless the request names its own) failing when any address of the name is not public. */
function publicOnlyLookup(lookup: Lookup): Lookup {
  return (hostname, options, callback) =>
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, []);
      const addresses = found as LookupAddress[];
      const refused = addresses.find(({ address }) => !isPublicAddress(address));
      if (refused) return callback(refusal(refused.address, hostname), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
}

type ConnectionListener = (error: Error | null, socket: Socket) => void;

/** The connection's options, once its address (when it is one) is public; its names resolve to public ones only. */
function publicConnection(options: TcpNetConnectOpts): TcpNetConnectOpts {
  const { host } = options;
  if (host !== undefined && isIP(host) && !isPublicAddress(host)) throw refusal(host);
  const lookup = (options.lookup ?? dnsLookup) as unknown as Lookup;
  return { ...options, lookup: publicOnlyLookup(lookup) as unknown as TcpNetConnectOpts['lookup'] };
}

/**
 * The filtering agent of http targets, which also refuses every address `isPublicAddress` refuses (the agent
 * misses IPv4-compatible IPv6 such as `::7f00:1`); unless private networks are allowed.
 */
export class PublicHttpAgent extends RequestFilteringHttpAgent {
  constructor(private readonly publicOnly: boolean) {
    super({ allowPrivateIPAddress: !publicOnly, allowMetaIPAddress: !publicOnly, keepAlive: true });
  }

  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener): unknown {
    return super.createConnection(this.publicOnly ? publicConnection(options) : options, listener);
  }
}

/** As PublicHttpAgent, for https targets. */
export class PublicHttpsAgent extends RequestFilteringHttpsAgent {
  constructor(private readonly publicOnly: boolean) {
    super({ allowPrivateIPAddress: !publicOnly, allowMetaIPAddress: !publicOnly, keepAlive: true });
  }

  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener): unknown {
    return super.createConnection(this.publicOnly ? publicConnection(options) : options, listener);
  }
}
