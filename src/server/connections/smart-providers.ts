/**
 * SMART_PROVIDERS (CONTRACT §6 'Connections'): the patient portals this server may connect
 * to, as JSON or the path of a JSON file: `[{ "name", "fhirBaseUrl", "clientId",
 * "clientSecret"?, "scopes"? }]`. Each is a SMART on FHIR server the operator registered a
 * patient app with (its redirect URI `{BASE_URL}/api/connections/callback`). A FHIR base URL
 * must be https, but on a loopback host (a sandbox on this machine).
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

/** How often the daily sync looks for connections due (a day after their last sync). */
export const DUE_CHECK_MS = 15 * 60 * 1000;

export interface SmartProvider {
  /** The health system's name, as 'Health System' offers it: unique. */
  name: string;
  /** The FHIR base URL, without a trailing slash. */
  fhirBaseUrl: string;
  clientId: string;
  /** A confidential client's secret; none for a public client (PKCE alone). */
  clientSecret: string | null;
  /** The scopes to ask for instead of the patient scopes chosen by the portal's discovery. */
  scopes: string | null;
}

/** Whether a URL's host is this machine: the only hosts reached over plain http. */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(max, `${what} must be at most ${max} characters`);

const providerSchema = z.object({
  name: text('name', 80),
  fhirBaseUrl: text('fhirBaseUrl', 2000)
    .refine((value) => URL.canParse(value), 'fhirBaseUrl must be a URL')
    .refine((value) => {
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));
    }, 'fhirBaseUrl must be https (http only on this machine: localhost, 127.0.0.1)')
    .refine((value) => !new URL(value).search && !new URL(value).hash, {
      error: 'fhirBaseUrl must not carry a query or a fragment',
    }),
  clientId: text('clientId', 500),
  clientSecret: text('clientSecret', 2000).optional(),
  scopes: text('scopes', 2000).optional(),
});

/** Reads SMART_PROVIDERS; throws an Error whose message says what is wrong and where. */
export function parseSmartProviders(value: string | undefined): SmartProvider[] {
  if (!value?.trim()) return [];
  const source = value.trim();
  let json: unknown;
  try {
    const content =
      source.startsWith('[') || source.startsWith('{')
        ? source
        : existsSync(source)
          ? readFileSync(source, 'utf8')
          : null;
    if (content === null) {
      throw new Error(
        `SMART_PROVIDERS must be JSON or the path of a JSON file (${source} is not a file)`,
      );
    }
    json = JSON.parse(content);
  } catch (error) {
    if (error instanceof SyntaxError)
      throw new Error(`SMART_PROVIDERS is not valid JSON: ${error.message}`, { cause: error });
    throw error;
  }
  const list = z.array(z.unknown()).safeParse(json);
  if (!list.success) throw new Error('SMART_PROVIDERS must be a JSON list of providers');
  const providers = list.data.map((item, index) => {
    const parsed = providerSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0];
      const message =
        issue?.code === 'invalid_type' && issue.input === undefined
          ? `${String(field)} is required`
          : (issue?.message ?? 'is not valid');
      throw new Error(`SMART_PROVIDERS[${index}]: ${message}`);
    }
    const { data } = parsed;
    return {
      name: data.name,
      fhirBaseUrl: data.fhirBaseUrl.replace(/\/+$/, ''),
      clientId: data.clientId,
      clientSecret: data.clientSecret ?? null,
      scopes: data.scopes ?? null,
    };
  });
  const names = new Set<string>();
  for (const provider of providers) {
    if (names.has(provider.name.toLowerCase())) {
      throw new Error(`SMART_PROVIDERS: the name '${provider.name}' is given twice`);
    }
    names.add(provider.name.toLowerCase());
  }
  return providers;
}
