import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * The key that seals webhook endpoint secrets: SERVICE_SECRETS_KEY, or, for the
 * embedded default, a key generated on first start in DATA_DIR (mode 0600).
 * Several processes sharing one database must share this key: set it explicitly when scaled out.
 */
export async function secretsKey(configured: string | null, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets.key');
  if (!existsSync(file)) {
    await fs.mkdir(dataDir, { recursive: true });
    await fs.writeFile(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch((e) => {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    });
  }
  return (await fs.readFile(file, 'utf8')).trim();
}
