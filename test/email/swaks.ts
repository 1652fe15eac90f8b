// Debian's swaks as a sending MTA, for the system tier's interop checks (the npm
// tier sends with mail-rig.ts's sendMail).
import { execFile } from 'node:child_process';
import { requireProgram } from '../support/system.js';

export interface SwaksResult {
  code: number;
  output: string;
}

/** Runs swaks against the receiver; its exit code says where the server refused (0 ok, 24 RCPT, 26 DATA). */
export function swaks(port: number, args: string[]): Promise<SwaksResult> {
  requireProgram('/usr/bin/swaks', 'swaks libnet-ssleay-perl');
  return new Promise((resolve) => {
    execFile(
      'swaks',
      ['--server', `127.0.0.1:${port}`, '--helo', 'mx.customer.example', '--hide-informational', ...args],
      { timeout: 20_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, output: `${stdout}${stderr}` });
      },
    );
  });
}
