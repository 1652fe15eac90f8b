// The error catalogue is complete and current: every code the source can raise
// is declared with the status it is raised with, nothing declared is dead, the
// OpenAPI document lists each code under its status, and docs/errors.md is what
// the catalogue renders. (Every code a test's answer carried is checked against
// the catalogue too, by the answer check at the end of the run.)
import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCatalogue } from '../../src/capabilities/index.js';
import { renderErrorsMarkdown } from '../../src/api/errors-doc.js';
import { documentedRoutes, openApiDocument } from '../../src/openapi-document.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const CODE = `'([a-z]+(?:_[a-z]+)+|[a-z]+)'`;
/** Where the source raises a code, and the status that way of raising it gives. */
const RAISES: { re: RegExp; status: (m: RegExpMatchArray) => number }[] = [
  ...Object.entries({
    BadRequest: 400,
    TemplateError: 400,
    UrlRefused: 400,
    Unauthorized: 401,
    Forbidden: 403,
    Conflict: 409,
    Gone: 410,
    Unprocessable: 422,
  }).map(([cls, status]) => ({
    re: new RegExp(`new ${cls}\\(\\s*${CODE}`, 'g'),
    status: () => status,
  })),
  { re: new RegExp(`new NotFound\\([^,()]+(?:\\([^)]*\\))?[^,()]*,\\s*${CODE}`, 'g'), status: () => 404 },
  { re: new RegExp(`(?:new AppError|super)\\(\\s*(\\d{3}),\\s*${CODE}`, 'g'), status: (m) => Number(m[1]) },
  { re: new RegExp(`\\[(\\d{3}), ${CODE}, '`, 'g'), status: (m) => Number(m[1]) },
  // entries of a 400 with several errors
  { re: new RegExp(`errors\\.push\\(\\{ code: ${CODE}`, 'g'), status: () => 400 },
  { re: new RegExp(`ValidationFailed\\(\\[\\{ code: ${CODE}`, 'g'), status: () => 400 },
];

async function sources(dir: string): Promise<{ file: string; text: string }[]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts') && !f.includes('migrations/'));
  return Promise.all(files.map(async (f) => ({ file: f, text: await readFile(path.join(dir, f), 'utf8') })));
}

describe('error catalogue (unit)', () => {
  const catalogue = errorCatalogue();

  it('declares every code the source raises, under the status it is raised with', async () => {
    const missing: string[] = [];
    let found = 0;
    for (const { file, text } of await sources(SRC)) {
      for (const { re, status } of RAISES) {
        for (const m of text.matchAll(re)) {
          const code = m[m.length - 1]!;
          found++;
          if (!catalogue.has(code, status(m))) missing.push(`${file}: ${code} (${status(m)})`);
        }
      }
    }
    expect(found, 'the scan finds the raising sites').to.be.greaterThan(100);
    expect([...new Set(missing)]).to.deep.equal([]);
  });

  it('declares nothing the source never names', async () => {
    const all = (await sources(SRC))
      .filter(({ file }) => !file.endsWith('error-codes.ts') && !/capabilities\/[^/]+\/index\.ts$/.test(file))
      .map((s) => s.text)
      .join('\n');
    const dead = catalogue
      .list()
      .filter((e) => !all.includes(`'${e.code}'`) && !all.includes(`"${e.code}"`))
      .map((e) => e.code);
    expect(dead).to.deep.equal([]);
  });

  it('the OpenAPI document lists each code under each of its statuses', () => {
    const doc = openApiDocument(documentedRoutes()) as unknown as { components: { responses: Record<string, { description: string }> } };
    const byStatus = new Map<number, string>();
    for (const r of Object.values(doc.components.responses)) {
      const s = catalogue.list().find((e) => r.description.includes(`\`${e.code}\``));
      if (s)
        for (const st of s.statuses)
          if (!byStatus.has(st) && catalogue.ofStatus(st).every((c) => r.description.includes(`\`${c}\``))) byStatus.set(st, r.description);
    }
    const undocumented = catalogue
      .list()
      .flatMap((e) => e.statuses.filter((st) => !byStatus.get(st)?.includes(`\`${e.code}\``)).map((st) => `${e.code} (${st})`));
    expect(undocumented).to.deep.equal([]);
  });

  it('docs/errors.md is what the catalogue renders', async () => {
    const committed = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(committed === renderErrorsMarkdown(catalogue), 'docs/errors.md is stale: run npm run docs:errors').to.equal(true);
  });
});
