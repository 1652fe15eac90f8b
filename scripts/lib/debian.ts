// A tool from a Debian package: present, or installed with apt-get when we run
// as root (with a temporary policy-rc.d so the package starts no system
// service), otherwise a clear error saying what to install.
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';

export async function ensureDebianPackage(binary: string, pkg: string, log: (m: string) => void): Promise<void> {
  if (existsSync(binary)) return;
  if (process.getuid?.() !== 0)
    throw new Error(`${pkg} is not installed (${binary} is missing). Install Debian's package first: sudo apt-get install -y ${pkg}`);
  log(`${binary} missing: apt-get install -y ${pkg}`);
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy)
    await fs.writeFile(policy, '#!/bin/sh\n# written by scripts/lib/debian.ts: do not start services while installing\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update'], ['install', '-y', '--no-install-recommends', pkg]]) {
      const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 600_000 });
      if (r.status !== 0)
        throw new Error(`apt-get ${args.join(' ')} failed (status ${r.status}):\n${(r.stderr || r.stdout || String(r.error ?? '')).slice(-2000)}`);
    }
  } finally {
    if (ownPolicy) await fs.rm(policy, { force: true });
  }
  if (!existsSync(binary)) throw new Error(`apt-get installed ${pkg} but ${binary} is still missing`);
}
