// Writes docs/openapi.json from the route definitions: `npm run openapi`.
import { writeFile } from 'node:fs/promises';
import { documentedRoutes, openApiDocument } from '../src/openapi-document.js';

const out = new URL('../docs/openapi.json', import.meta.url);
await writeFile(out, `${JSON.stringify(openApiDocument(documentedRoutes()), null, 2)}\n`);
console.error(`wrote ${out.pathname}`);
