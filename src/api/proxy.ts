// Which proxy, if any, carries the client's requests: HTTPS_PROXY for an https base URL,
// HTTP_PROXY for an http one (each also in lower case, which wins; ALL_PROXY for both),
// unless NO_PROXY names the host. The rules are curl's and Go's, which users' other tools
// follow: a NO_PROXY entry `example.com` (or `.example.com`, `*.example.com`) matches that
// host and every host below it, an entry may carry a port (`example.com:8443`), an address
// or a range (`10.0.0.0/8`) matches addresses, and `*` turns every proxy off. As in Go's
// client, a loopback host (localhost, 127.0.0.0/8, ::1: a local sandbox) is never proxied.
//
// Read from the environment the client is given (the command's, or a test's), not from
// process.env; a proxy-from-env package would read only the latter, and matches a bare
// domain only exactly.
import { BlockList, isIP } from 'node:net';
import { UsageError } from '../errors.ts';

export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/** The value of an environment variable, lower-case name first; empty counts as unset. */
function variable(env: ProxyEnv, name: string): { name: string; value: string } | undefined {
  for (const n of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[n]?.trim();
    if (value) return { name: n, value };
  }
  return undefined;
}

/** A host as URL.hostname gives it, without an IPv6 address's brackets, in lower case. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && /^(0*:)*:?0*1$/.test(host);
}

/** Whether a NO_PROXY entry matches `host` (bare, lower case) at `port`. */
function matches(entry: string, host: string, port: number): boolean {
  let name = entry;
  // An entry's port: `host:port`, `[v6]:port`; an IPv6 address alone has colons of its own.
  const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
  if (withPort) {
    if (Number(withPort[2]) !== port) return false;
    name = withPort[1]!;
  }
  name = bareHost(name);
  if (name.includes('/')) {
    const [address, bits] = name.split('/');
    const family = isIP(address ?? '');
    if (family === 0 || isIP(host) !== family) return false;
    const range = new BlockList();
    try {
      range.addSubnet(address!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    } catch {
      return false;
    }
    return range.check(host, family === 4 ? 'ipv4' : 'ipv6');
  }
  name = name.replace(/^\*/, '').replace(/^\./, '');
  if (name === '') return false;
  return host === name || (isIP(host) === 0 && host.endsWith(`.${name}`));
}

/**
 * The proxy for requests to `url` under `env`, or undefined to connect directly. A proxy
 * variable that does not hold an http:// or https:// URL is a usage error naming it.
 */
export function proxyFor(url: URL, env: ProxyEnv): URL | undefined {
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  const host = bareHost(url.hostname);
  if (isLoopback(host)) return undefined;
  const set = variable(env, `${scheme}_proxy`) ?? variable(env, 'all_proxy');
  if (set === undefined) return undefined;
  const noProxy = variable(env, 'no_proxy')?.value.toLowerCase() ?? '';
  const port = Number(url.port) || (scheme === 'https' ? 443 : 80);
  const entries = noProxy.split(/[\s,]+/).filter((e) => e !== '');
  if (entries.includes('*') || entries.some((e) => matches(e, host, port))) return undefined;
  let proxy: URL;
  try {
    proxy = new URL(set.value.includes('://') ? set.value : `http://${set.value}`);
  } catch {
    throw new UsageError(
      `${set.name} is not a URL.`,
      `Set it to the proxy's address, like http://proxy.example.com:3128, or unset it.`,
    );
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new UsageError(
      `${set.name} names a ${proxy.protocol.slice(0, -1)} proxy; ws speaks to http:// and https:// proxies.`,
      `Use an HTTP proxy's address, or list the service's host in NO_PROXY.`,
    );
  }
  return proxy;
}

/** A proxy as it may be shown: its origin, never its credentials. */
export function shownProxy(proxy: URL): string {
  return proxy.origin;
}
