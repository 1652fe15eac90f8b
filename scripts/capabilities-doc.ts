// Writes the capability table into docs/architecture.md (between its markers), generated from the module list:
// `npm run docs:capabilities`.
import { readFileSync, writeFileSync } from 'node:fs';
import { withCapabilityTable } from './lib/capabilities-doc.js';

const file = new URL('../docs/architecture.md', import.meta.url);
writeFileSync(file, withCapabilityTable(readFileSync(file, 'utf8')));
process.stdout.write(`wrote ${file.pathname}\n`);
