/**
 * The ways to run Kin for good hold together: the compose files have the services, volumes
 * and variables the README and docs/operations.md describe, every variable they require is in
 * `.env.example`, the image's tag is the version in package.json, the proxy's replicas share
 * what two servers on one database must share, and the systemd unit is one systemd accepts
 * (`systemd-analyze verify`, where installed), starting the server as `npm start` does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (file) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const version = JSON.parse(read('package.json')).version;
const startScript = JSON.parse(read('package.json')).scripts.start;
/** The node command `npm start` runs after building: `node <flags> dist/server/main.js`. */
const nodeCommand = /node (.*dist\/server\/main\.js)$/.exec(startScript)?.[1];

/** The variables a compose file requires (`${NAME:?message}`), by name. */
function requiredVariables(text) {
  return new Set([...text.matchAll(/\$\{([A-Z_]+):\?/g)].map((match) => match[1]));
}

/** The names `.env.example` gives a line to. */
function exampleVariables() {
  return new Set([...read('.env.example').matchAll(/^([A-Z_]+)=/gm)].map((match) => match[1]));
}

describe('compose.yaml', () => {
  const text = read('compose.yaml');
  const compose = parse(text);

  it('runs the app and PostgreSQL, each on a named volume, the app once the database answers', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'db']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['kin-data', 'kin-db']);
    const { app, db } = compose.services;
    expect(app.volumes).toEqual(['kin-data:/data']);
    expect(db.volumes).toEqual(['kin-db:/var/lib/postgresql/data']);
    expect(app.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(db.healthcheck.test.join(' ')).toContain('pg_isready');
    expect(db.image).toMatch(/^postgres:\d+/);
  });

  it('tags the image with the version in package.json', () => {
    expect(compose.services.app.image).toBe(`kin-health:${version}`);
    expect(compose.services.app.build).toBe('.');
  });

  it('points the app at the database service, with the secrets from .env', () => {
    const environment = compose.services.app.environment;
    expect(environment.DATABASE_URL).toMatch(
      /^postgres:\/\/kin:\$\{POSTGRES_PASSWORD:\?.*\}@db:5432\/kin$/,
    );
    for (const name of ['FAMILY_PASSCODE', 'AUTH_SECRET', 'BASE_URL']) {
      expect(environment[name]).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    }
    for (const name of requiredVariables(text)) expect(exampleVariables()).toContain(name);
  });
});

describe('deploy/compose.proxy.yaml', () => {
  const text = read('deploy/compose.proxy.yaml');
  const compose = parse(text, { merge: true });

  it('runs two app replicas on one database behind Caddy, each with a data folder of its own', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app-1', 'app-2', 'db', 'proxy']);
    expect(compose.services['app-1'].volumes).toEqual(['kin-data-1:/data']);
    expect(compose.services['app-2'].volumes).toEqual(['kin-data-2:/data']);
    expect(compose.services.proxy.image).toMatch(/^caddy:2/);
    expect(compose.services.proxy.ports.sort()).toEqual(['443:443', '80:80']);
    expect(compose.services.proxy.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
  });

  it('gives both replicas what two servers on one database must share', () => {
    const [one, two] = [compose.services['app-1'], compose.services['app-2']];
    expect(one.environment).toEqual(two.environment);
    expect(one.image).toBe(`kin-health:${version}`);
    expect(one.environment.DATABASE_URL).toMatch(/@db:5432\/kin$/);
    expect(one.environment.TRUST_PROXY).toBe('true');
    expect(one.environment.BASE_URL).toMatch(/^https:\/\/\$\{KIN_HOST:\?/);
    for (const name of [
      'AUTH_SECRET',
      'FAMILY_PASSCODE',
      'VAPID_PUBLIC_KEY',
      'VAPID_PRIVATE_KEY',
    ]) {
      expect(one.environment[name]).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    }
    for (const name of requiredVariables(text)) expect(exampleVariables()).toContain(name);
  });

  it('has Caddy spread requests over both replicas, checking their health', () => {
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toMatch(/reverse_proxy app-1:3000 app-2:3000/);
    expect(caddyfile).toMatch(/health_uri \/api\/health/);
  });
});

describe('Containerfile', () => {
  const containerfile = read('Containerfile');

  it('runs the built server as npm start does, as a user of its own, with /data a volume', () => {
    const entry = /^ENTRYPOINT (\[.*\])$/m.exec(containerfile)?.[1];
    expect(JSON.parse(entry ?? '[]').join(' ')).toBe(`node ${nodeCommand}`);
    expect(containerfile).toMatch(/^ARG BASE=node:24-/m);
    expect(containerfile).toMatch(/^USER kin$/m);
    expect(containerfile).toMatch(/^VOLUME \/data$/m);
    expect(containerfile).toMatch(/DATA_DIR=\/data/);
    expect(containerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
  });

  it("has the operator's command as `kin`, the built one, and its usage says so", () => {
    expect(containerfile).toContain('exec node --enable-source-maps /app/dist/server/cli.js');
    expect(containerfile).toContain('>/usr/local/bin/kin');
    expect(containerfile).toMatch(/KIN_COMMAND=kin/);
    expect(read('scripts/build-server.mjs')).toContain("cli: 'src/server/cli.ts'");
  });
});

describe('deploy/kin-health.service', () => {
  const unit = read('deploy/kin-health.service');

  it('starts the built server as npm start does, as a user of its own, in its state folder', () => {
    expect(nodeCommand).toBeTruthy();
    expect(unit).toContain(`ExecStart=/usr/bin/node ${nodeCommand}`);
    expect(unit).toMatch(/^DynamicUser=yes$/m);
    expect(unit).toMatch(/^StateDirectory=kin-health$/m);
    expect(unit).toMatch(/^Environment=DATA_DIR=\/var\/lib\/kin-health$/m);
  });

  it('uses the hardening systemd offers', () => {
    for (const line of [
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'PrivateDevices=yes',
      'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6',
      'CapabilityBoundingSet=',
      'SystemCallFilter=@system-service',
    ]) {
      expect(unit.split('\n')).toContain(line);
    }
  });

  it.runIf(existsSync('/usr/bin/systemd-analyze'))('is a unit systemd accepts', () => {
    // Verified as written; where Node.js is not /usr/bin/node (a machine with its own), with
    // this test's node in its place, since verify checks that the program exists.
    const dir = mkdtempSync(path.join(tmpdir(), 'kin-unit-'));
    const unitFile = path.join(dir, 'kin-health.service');
    writeFileSync(
      unitFile,
      existsSync('/usr/bin/node') ? unit : unit.replace('/usr/bin/node', process.execPath),
    );
    const verified = spawnSync('systemd-analyze', ['verify', unitFile], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    // An unknown key or a bad value is a warning on stderr; a missing program, a failure.
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
  });
});
