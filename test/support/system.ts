// The system tier (*.system.test.ts, `npm run test:system`) drives Debian programs.
// scripts/system-packages.sh installs them first (as root) or says what to install;
// a check run some other way without its program fails with that line: never a skip.
import { existsSync } from 'node:fs';

/** Throws, naming the apt-get line, unless the program is there. */
export function requireProgram(file: string, debianPackage: string): void {
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: apt-get install -y --no-install-recommends ${debianPackage} (npm run test:system installs it when run as root)`);
  }
}
