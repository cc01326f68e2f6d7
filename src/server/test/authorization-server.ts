/**
 * What the tests' authorization servers built on `oidc-provider` (the OpenID Provider of
 * test/openid-provider.ts and the patient portal of test/smart-server.ts) share: an HTTP
 * server on 127.0.0.1, and the sign-in page, a minimal form with one field at the
 * interaction address. Signing in gives the consent too: the server says which grant the
 * account gets, and the interaction is finished with it.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';
import type { Grant } from 'oidc-provider';

/** An HTTP server listening on 127.0.0.1 (`port` 0: any free port), its origin the issuer. */
export async function listenOnLoopback(port = 0): Promise<{
  server: Server;
  issuer: string;
  close: () => Promise<void>;
}> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { server, issuer: `http://127.0.0.1:${bound}`, close };
}

/** A form-encoded request body. */
export async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The words of a sign-in page. */
export interface SignInForm {
  /** The page's title and heading. */
  title: string;
  /** The one field's label, and its name in the posted form. */
  label: string;
  name: string;
  type: 'email' | 'text';
  button: string;
  /** The alert when no account has what was typed. */
  unknown: string;
}

function signInPage(form: SignInForm, uid: string, message = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(form.title)}</title></head>
<body style="font-family: sans-serif; padding: 1rem">
<h1>${escapeHtml(form.title)}</h1>${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}">
<label for="${form.name}">${escapeHtml(form.label)}</label> <input id="${form.name}" name="${form.name}" type="${form.type}">
<button type="submit">${escapeHtml(form.button)}</button></form></body></html>`;
}

function sendPage(response: ServerResponse, html: string) {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(html);
}

/**
 * The request listener of a provider whose interactions (`/interaction/{uid}`, as its
 * `interactions.url` must say) are this sign-in page. `signIn` gets what was typed and the
 * authorization request's parameters, and answers the account's grant (unsaved), or
 * nothing when there is no such account.
 */
export function withSignInPage(
  provider: Provider,
  form: SignInForm,
  signIn: (typed: string, params: Record<string, unknown>) => Grant | undefined,
): RequestListener {
  const callback = provider.callback();
  return (request, response) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(request.url ?? '');
    if (!match) {
      callback(request, response);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(request, response);
      if (request.method !== 'POST') {
        sendPage(response, signInPage(form, details.uid));
        return;
      }
      const typed = (await formBody(request)).get(form.name)?.trim() ?? '';
      const grant = signIn(typed, details.params);
      if (!grant) {
        sendPage(response, signInPage(form, details.uid, form.unknown));
        return;
      }
      const grantId = await grant.save();
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: grant.accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  };
}
