// Writes docs/asyncapi.json from the event catalogue: `npm run docs:asyncapi`.
import { writeFile } from 'node:fs/promises';
import { asyncApiDocument } from '../src/asyncapi-document.js';

const out = new URL('../docs/asyncapi.json', import.meta.url);
await writeFile(out, `${JSON.stringify(asyncApiDocument(), null, 2)}\n`);
console.error(`wrote ${out.pathname}`);
