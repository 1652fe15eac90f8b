// Writes docs/openapi.json from the route definitions, and the TypeScript types
// of it (openapi-typescript) to docs/client/schema.d.ts: `npm run openapi`.
import { writeFile } from 'node:fs/promises';
import { documentedRoutes, openApiDocument } from '../src/openapi-document.js';
import { clientTypes } from './client-types.js';

const doc = openApiDocument(documentedRoutes());
const out = new URL('../docs/openapi.json', import.meta.url);
await writeFile(out, `${JSON.stringify(doc, null, 2)}\n`);
console.error(`wrote ${out.pathname}`);
const types = new URL('../docs/client/schema.d.ts', import.meta.url);
await writeFile(types, await clientTypes(doc));
console.error(`wrote ${types.pathname}`);
