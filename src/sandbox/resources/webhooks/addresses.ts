// Where a webhook may deliver (api.md: "addresses resolving to private or internal hosts are
// rejected"). A url must be an absolute http(s) URL; its host is resolved and refused when
// ANY of its addresses is loopback, private, link-local (cloud metadata services included),
// unique local, shared (CGNAT), multicast, broadcast, unspecified or reserved. The ranges are
// ipaddr.js's; an IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-translated,
// IPv4-compatible, the NAT64 well-known prefix, 6to4) is judged by the IPv4 address it
// carries, and Teredo (whose IPv4 addresses are obscured) is refused. The other spellings
// of an IPv4 address (2130706433, 0177.0.0.1, 0x7f.1) reach this module already written as
// dotted quads: the WHATWG URL parser normalises them, and ipaddr.js reads them the same way.
//
// The sandbox allows loopback receivers unless it runs with the service's strict rule
// (settings.strictAddresses), so receivers on a developer's own machine work.
//
// A delivery connects to the address checked here, for that attempt (sender.ts), so a DNS
// answer that changes between the check and the connection (rebinding) is never used.

import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Resolver } from './settings.ts';

/** How long a resolution may take before the host counts as not resolving. */
const RESOLVE_TIMEOUT_MS = 5_000;

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4-compatible IPv6 addresses (::a.b.c.d, deprecated); ipaddr.js calls them unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** The NAT64 well-known prefix, which carries the IPv4 address in its last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** What the ranges of ipaddr.js are, in a refusal's words. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (where cloud metadata services answer)',
  uniqueLocal: 'a unique local address',
  deprecatedSiteLocal: 'a site-local address',
  carrierGradeNat: 'a shared address space (CGNAT) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  reserved: 'a reserved address',
  teredo: 'a Teredo address',
};

/** An address judged: `range` is ipaddr.js's name, of the IPv4 address it carries if any. */
interface Judged {
  range: string;
  /** The IPv4 address an IPv6 address carries, when it carries one. */
  carried?: string;
}

function judge(ip: Ip): Judged {
  if (ip.kind() === 'ipv4') return { range: ip.range() };
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const carried = carriedIpv4(v6, range);
  if (carried === undefined) return { range };
  return { range: carried.range(), carried: carried.toString() };
}

function carriedIpv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const bytes = ip.toByteArray();
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return new ipaddr.IPv4(bytes.slice(12));
    case 'rfc6052':
      return ip.match(NAT64_WELL_KNOWN) ? new ipaddr.IPv4(bytes.slice(12)) : undefined;
    case '6to4':
      return new ipaddr.IPv4(bytes.slice(2, 6));
    case 'unicast':
      return ip.match(IPV4_COMPATIBLE) ? new ipaddr.IPv4(bytes.slice(12)) : undefined;
    default:
      return undefined;
  }
}

/** A refused address: how it is written, and what it is. */
interface Refused {
  shown: string;
  what: string;
}

function refused(address: string, strict: boolean): Refused | undefined {
  let ip: Ip;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return { shown: address, what: 'not an IP address' };
  }
  const { range, carried } = judge(ip);
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && !strict) return undefined;
  const words = RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  const via = carried === undefined ? '' : ` (it carries the IPv4 address ${carried})`;
  const rule =
    range === 'loopback'
      ? '; this sandbox applies the service’s strict rule, which refuses loopback receivers too'
      : '';
  return { shown: ip.toString(), what: `${words}${via}${rule}` };
}

/**
 * Why deliveries may not go to `address` (an IP address in any spelling ipaddr.js reads),
 * or undefined when they may. `strict` refuses loopback too (the hosted service's rule).
 */
export function addressRefusal(address: string, strict: boolean): string | undefined {
  const found = refused(address, strict);
  return found === undefined ? undefined : `${found.shown} is ${found.what}`;
}

/** A url's problem, as a field error's code and message; undefined when it is fine. */
export interface UrlProblem {
  code: string;
  message: string;
}

/** The url parsed, or what is wrong with it: an absolute http(s) URL with a host. */
export function parseReceiverUrl(text: string): URL | UrlProblem {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { code: 'format', message: `url '${text}' is not an absolute URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      code: 'scheme',
      message: `url must use http or https, not '${url.protocol.slice(0, -1)}'.`,
    };
  }
  if (url.hostname === '') {
    return { code: 'format', message: `url '${text}' has no host.` };
  }
  return url;
}

/** The url's host without the brackets of an IPv6 literal. */
export function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** What resolving and checking a host found. */
export type HostCheck =
  /** Every address may receive; deliveries connect to the first. */
  | { kind: 'allowed'; addresses: readonly string[] }
  | { kind: 'refused'; reason: string }
  /** The host has no address (or the resolver failed, or took too long). */
  | { kind: 'unresolved'; reason: string };

/** Resolve `host` (an IP literal resolves to itself) and check every address it has. */
export async function checkHost(
  host: string,
  strict: boolean,
  resolver: Resolver | undefined,
): Promise<HostCheck> {
  let addresses: readonly string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await withTimeout((resolver ?? systemResolver)(host), RESOLVE_TIMEOUT_MS);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return {
        kind: 'unresolved',
        reason: `host ${host} did not resolve (${code ?? String(err)})`,
      };
    }
    if (addresses.length === 0) {
      return { kind: 'unresolved', reason: `host ${host} has no address` };
    }
  }
  for (const address of addresses) {
    const found = refused(address, strict);
    if (found !== undefined) {
      const reason =
        address === host
          ? `${found.shown} is ${found.what}`
          : `${host} resolves to ${found.shown}, ${found.what}`;
      return { kind: 'refused', reason };
    }
  }
  return { kind: 'allowed', addresses };
}

async function systemResolver(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
