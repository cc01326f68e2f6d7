/**
 * Where reminders may be sent. A device's push subscription names the address the server
 * posts its reminders to; the browser makes it, but the request that saves it could name any
 * address, and the server would post there every time a reminder is due. So an address must
 * be a push service's: https, on a host that answers from the public internet. The host is
 * checked when the subscription is saved (as written) and again as each reminder is sent (the
 * addresses its name resolves to, on the very connection made), so that a name pointed at
 * this machine or the home network later reaches nothing.
 *
 * The account's other channels (an ntfy topic, a webhook) follow the same rule, except for
 * the hosts the operator lists in NOTIFY_ALLOWED_HOSTS (a self-hosted ntfy beside the
 * server): those may be on this machine or the home network, and over plain http.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { key, tr } from '../../shared/i18n/translate';

/**
 * `public`, always in the product: push services' https addresses only. `any`: also plain
 * http and this machine, for the API tests, whose push service listens on 127.0.0.1.
 */
export type PushEndpointPolicy = 'public' | 'any';

export const PUSH_ENDPOINT_MESSAGE = key("Endpoint must be a push service's https address");

/** Addresses that are not the public internet's (IANA special-purpose registries). */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-compatible addresses ('::7f00:1'), deprecated; IPv4-mapped ones are read below.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const MAPPED_IPV4_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** The IPv4 address an IPv4-mapped IPv6 one stands for ('::ffff:7f00:1' is 127.0.0.1). */
function mappedIpv4(address: string): string | undefined {
  const dotted = MAPPED_IPV4.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = MAPPED_IPV4_HEX.exec(address);
  if (!hex) return undefined;
  const [high, low] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an IP address is on the public internet (an IPv4 one written as IPv6 too). */
export function isPublicAddress(address: string): boolean {
  const mapped = mappedIpv4(address);
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Names that stay on this machine or the local network, whatever DNS says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|lan)$/i;

/** A URL's host as NOTIFY_ALLOWED_HOSTS names hosts: lower case, no brackets, no final dot. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** Whether a host, as written, may be on the public internet (its addresses are checked later). */
function isPublicHost(host: string): boolean {
  return isIP(host) ? isPublicAddress(host) : !LOCAL_NAME.test(host) && host.includes('.');
}

/** What is wrong with a push endpoint as written, or null when it may be saved. */
export function pushEndpointProblem(endpoint: string, policy: PushEndpointPolicy): string | null {
  if (policy === 'any') return null;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return PUSH_ENDPOINT_MESSAGE;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return PUSH_ENDPOINT_MESSAGE;
  if (!isPublicHost(hostOf(url))) return PUSH_ENDPOINT_MESSAGE;
  return null;
}

/** The hosts (names or addresses, as hostOf writes them) the operator lets channels reach. */
export type AllowedHosts = readonly string[];

/**
 * What is wrong with a notification channel's URL as written (`label` names the field), or
 * null when it may be saved: http(s) to a public host, https unless the host is allowed.
 */
export function channelUrlProblem(
  value: string,
  allowedHosts: AllowedHosts,
  label: string,
): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return tr('{label} must be an http or https URL', { label: tr(label) });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return tr('{label} must be an http or https URL', { label: tr(label) });
  }
  const host = hostOf(url);
  if (allowedHosts.includes(host)) return null;
  if (!isPublicHost(host)) {
    return tr(
      "{label} reaches this machine or a private network; the server's operator can allow its host in NOTIFY_ALLOWED_HOSTS",
      { label: tr(label) },
    );
  }
  if (url.protocol !== 'https:') return tr('{label} must use https', { label: tr(label) });
  return null;
}

/** DNS as usual, but a name that leads anywhere but the public internet leads nowhere. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const refused = addresses.find(({ address }) => !isPublicAddress(address));
    if (refused || addresses.length === 0) {
      const problem = Object.assign(new Error(`${hostname} is not on the public internet`), {
        code: 'ENOTPUBLIC',
      });
      return callback(problem, '', 4);
    }
    if (options.all) return (callback as unknown as AllCallback)(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  });
};
type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

export interface PushRequest {
  endpoint: string;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | string | null;
}

/**
 * Sends one request; resolves with the status code. `lookup`: how the host's name is
 * resolved (publicOnlyLookup, or none for a host the operator allowed or in the tests).
 */
function sendRequest(
  push: PushRequest,
  lookup: LookupFunction | undefined,
  timeoutMs: number,
  silence: string,
  agents?: PushAgents,
): Promise<number> {
  const url = new URL(push.endpoint);
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: push.method,
        headers: push.headers,
        timeout: timeoutMs,
        ...(lookup ? { lookup } : {}),
        ...(agents ? { agent: https ? agents.https : agents.http } : {}),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('timeout', () => request.destroy(new Error(silence)));
    request.on('error', reject);
    request.end(push.body ?? undefined);
  });
}

interface PushAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * Connections to the push services kept open between reminders (a minute with a thousand
 * reminders to one push service opens a few, not a thousand), one pool per policy: a socket
 * opened by the public-only lookup is never shared with one opened without it.
 */
const KEEP_ALIVE = { keepAlive: true, maxSockets: 8, timeout: 60_000 } as const;
const pushAgents: Record<PushEndpointPolicy, PushAgents> = {
  public: {
    http: new HttpAgent({ ...KEEP_ALIVE, lookup: publicOnlyLookup }),
    https: new HttpsAgent({ ...KEEP_ALIVE, lookup: publicOnlyLookup }),
  },
  any: { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) },
};

/** Posts one reminder to its push service; resolves with the service's status code. */
export function sendToPushService(
  push: PushRequest,
  policy: PushEndpointPolicy,
  timeoutMs: number,
): Promise<number> {
  const problem = pushEndpointProblem(push.endpoint, policy);
  if (problem) return Promise.reject(new Error(problem));
  const lookup = policy === 'public' ? publicOnlyLookup : undefined;
  return sendRequest(
    push,
    lookup,
    timeoutMs,
    'The push service did not answer',
    pushAgents[policy],
  );
}

/**
 * Sends one notification to a channel's URL (an ntfy server, a webhook), checked again as it
 * is sent: a host the operator allowed is reached wherever it is; any other, only at public
 * addresses. Resolves with the status code.
 */
export function sendToChannel(
  push: PushRequest,
  allowedHosts: AllowedHosts,
  timeoutMs: number,
): Promise<number> {
  const problem = channelUrlProblem(push.endpoint, allowedHosts, key('The URL'));
  if (problem) return Promise.reject(new Error(problem));
  const allowed = allowedHosts.includes(hostOf(new URL(push.endpoint)));
  return sendRequest(push, allowed ? undefined : publicOnlyLookup, timeoutMs, 'No answer in time');
}
