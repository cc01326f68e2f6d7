// Serves the built product for the browser tests: on PORT with a fresh SQLite data
// directory and, when TEST_DATABASE_URL is set, on PORT+1 with a fresh PostgreSQL database
// as well; and on PORT+2 with mail set up, through a test SMTP server started here
// (STARTTLS with a certificate made here, trusted through NODE_EXTRA_CA_CERTS; a password),
// which writes what it takes into e2e/mailbox.ts's folder; and on PORT+3 (SQLite) with single
// sign-on set up, through a test OpenID Provider started here on PORT+5 (e2e/single-sign-on.ts);
// and on PORT+6 (SQLite) with a patient portal to connect to, the SMART on FHIR test server
// started here on PORT+7 (e2e/portal.ts). The others start first, so that when PORT answers,
// all are up.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createThrowawayPostgres } from '../src/server/test/throwaway-postgres';
import { MAIL_FROM, startTestSmtpServer } from '../src/server/test/smtp-server';
import { mailboxDir, mailServerPort } from '../e2e/mailbox';
import { startTestOpenIdProvider } from '../src/server/test/openid-provider';
import {
  SSO_NAME,
  SSO_TEST_IDENTITIES,
  openIdProviderPort,
  singleSignOnPort,
} from '../e2e/single-sign-on';
import { startTestSmartServer } from '../src/server/test/smart-server';
import { miaPortalRecords } from '../src/server/test/smart-portal-records';
import {
  PORTAL_NAME,
  PORTAL_USERNAME,
  connectionsPort,
  portalRedirectUri,
  portalServerPort,
} from '../e2e/portal';

const port = Number(process.env.PORT ?? 4310);
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-e2e-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    stdio: 'inherit',
    env: { ...process.env, ...env, DATA_DIR: dataDir },
  });
  children.push(child);
  child.on('exit', (code) => shutdown(code ?? 0));
  return child;
}

async function waitForHealth(url: string) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

let shuttingDown = false;
async function shutdown(code: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.exitCode !== null ? resolve() : child.on('exit', () => resolve()),
        ),
    ),
  );
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  process.exit(code);
}
process.on('SIGTERM', () => shutdown(0));
process.on('SIGINT', () => shutdown(0));

if (process.env.TEST_DATABASE_URL) {
  const throwaway = await createThrowawayPostgres(process.env.TEST_DATABASE_URL, 'kin_e2e');
  cleanups.push(throwaway.drop);
  start({ PORT: String(port + 1), DATABASE_URL: throwaway.url });
  await waitForHealth(`http://127.0.0.1:${port + 1}/api/health`);
}
{
  const mailbox = mailboxDir(port);
  rmSync(mailbox, { recursive: true, force: true });
  mkdirSync(mailbox, { recursive: true });
  cleanups.push(async () => rmSync(mailbox, { recursive: true, force: true }));
  let count = 0;
  const smtp = await startTestSmtpServer({
    onMail: (mail) => {
      count += 1;
      const { parsed } = mail;
      writeFileSync(
        path.join(mailbox, `${String(count).padStart(4, '0')}.json`),
        JSON.stringify({
          to: mail.envelopeTo,
          from: parsed.from?.text ?? '',
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
        }),
      );
    },
  });
  cleanups.push(() => smtp.stop());
  const certificate = path.join(mailbox, 'smtp-certificate.pem');
  writeFileSync(certificate, smtp.certificate);
  const mailPort = mailServerPort(port);
  start({
    PORT: String(mailPort),
    DATABASE_URL: '',
    SMTP_URL: smtp.url,
    MAIL_FROM,
    BASE_URL: `http://localhost:${mailPort}`,
    NODE_EXTRA_CA_CERTS: certificate,
  });
  await waitForHealth(`http://127.0.0.1:${mailPort}/api/health`);
}
{
  const ssoPort = singleSignOnPort(port);
  const provider = await startTestOpenIdProvider({
    port: openIdProviderPort(port),
    redirectUris: [`http://localhost:${ssoPort}/api/auth/callback/oidc`],
  });
  cleanups.push(() => provider.close());
  for (const identity of SSO_TEST_IDENTITIES) provider.addIdentity(identity);
  const oidc = {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: SSO_NAME,
  };
  start({ ...oidc, PORT: String(ssoPort), DATABASE_URL: '' });
  await waitForHealth(`http://127.0.0.1:${ssoPort}/api/health`);
}
{
  const appPort = connectionsPort(port);
  const origin = `http://localhost:${appPort}`;
  const portal = await startTestSmartServer({
    port: portalServerPort(port),
    redirectUris: [portalRedirectUri(origin)],
    controls: true,
  });
  cleanups.push(() => portal.close());
  portal.addPatient({ username: PORTAL_USERNAME, resources: await miaPortalRecords() });
  const providers = [
    { name: PORTAL_NAME, fhirBaseUrl: portal.fhirBaseUrl, clientId: portal.clientId },
  ];
  start({
    PORT: String(appPort),
    DATABASE_URL: '',
    BASE_URL: origin,
    SMART_PROVIDERS: JSON.stringify(providers),
  });
  await waitForHealth(`http://127.0.0.1:${appPort}/api/health`);
}
start({ PORT: String(port), DATABASE_URL: '' });
