// Every answer the e2e suite's HTTP client receives is recorded (test/support/http.ts)
// and, once the whole run is over, checked against the OpenAPI document
// generated from the route definitions (the root hook in global-fixture.ts):
// the status must be one the document gives for that route, and the body must
// match the schema of that status. Requests that match no documented route
// (a test-only route, a 404 route_not_found) are left out.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { documentedRoutes, openApiDocument } from '../../src/openapi-document.js';
import { errorCatalogue } from '../../src/capabilities/index.js';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (a: Ajv2020) => Ajv2020;

export interface RecordedAnswer {
  method: string;
  /** the path as requested, without the query string */
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

export const recordedAnswers: RecordedAnswer[] = [];

export function recordAnswer(a: RecordedAnswer): void {
  recordedAnswers.push(a);
}

type Json = Record<string, any>;

interface Template {
  template: string;
  regex: RegExp;
  params: number;
}

/** Replaces every local $ref with what it points at (the document's components hold no cycles). */
function deref(node: unknown, doc: Json, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((x) => deref(x, doc, seen));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string') {
    if (seen.includes(ref)) throw new Error(`cyclic $ref ${ref}`);
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return deref(target, doc, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v, doc, seen)]));
}

export interface AnswerCheck {
  checked: number;
  unmatched: number;
  /** "METHOD template" → statuses seen */
  covered: Map<string, Set<number>>;
  problems: string[];
}

export function checkRecordedAnswers(answers: readonly RecordedAnswer[] = recordedAnswers): AnswerCheck {
  const doc = openApiDocument(documentedRoutes()) as unknown as Json;
  const errors = errorCatalogue();
  const templates: Template[] = Object.keys(doc.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    params: (template.match(/\{/g) ?? []).length,
  }));
  // A literal segment wins over a parameter: /api/conversations/counts before /api/conversations/{id}.
  templates.sort((a, b) => a.params - b.params || b.template.length - a.template.length);
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  const validators = new Map<string, ValidateFunction>();
  const out: AnswerCheck = { checked: 0, unmatched: 0, covered: new Map(), problems: [] };
  const grouped = new Map<string, { count: number; example: string }>();
  const problem = (key: string, detail: string) => {
    const g = grouped.get(key) ?? { count: 0, example: detail };
    g.count++;
    grouped.set(key, g);
  };

  for (const a of answers) {
    const method = a.method.toLowerCase();
    const t = templates.find((x) => x.regex.test(a.path) && doc.paths[x.template][method]);
    if (!t) {
      out.unmatched++;
      continue;
    }
    out.checked++;
    const name = `${a.method.toUpperCase()} ${t.template}`;
    const statuses = out.covered.get(name) ?? new Set<number>();
    statuses.add(a.status);
    out.covered.set(name, statuses);
    const responses = doc.paths[t.template][method].responses as Json;
    const response = responses[String(a.status)] as Json | undefined;
    if (!response) {
      problem(`${name} ${a.status}: status not documented (documented: ${Object.keys(responses).join(', ')})`, a.text.slice(0, 300));
      continue;
    }
    const resolved = deref(response, doc) as Json;
    // A bodyless answer may carry a body only in the case its `x-exceptional-content` documents (checked like content).
    const content = (resolved.content ?? (a.text !== '' ? resolved['x-exceptional-content'] : undefined)) as Json | undefined;
    if (!content) {
      if (a.text !== '') problem(`${name} ${a.status}: documented without a body, answered one`, a.text.slice(0, 300));
      continue;
    }
    if (a.text === '') {
      problem(`${name} ${a.status}: answered an empty body, documented with one`, '');
      continue;
    }
    const json = content['application/json'] as Json | undefined;
    if (!json) continue; // another media type (text/html, text/plain): the status is what is checked
    if (!a.contentType?.startsWith('application/json')) {
      problem(`${name} ${a.status}: Content-Type ${a.contentType}, documented application/json`, a.text.slice(0, 300));
      continue;
    }
    if (!json.schema) continue;
    const key = `${name} ${a.status}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(deref(json.schema, doc) as Json);
      validators.set(key, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      problem(`${key}: the body is not JSON`, a.text.slice(0, 300));
      continue;
    }
    if (!validate(body)) {
      const why = (validate.errors ?? [])
        .slice(0, 3)
        .map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`)
        .join('; ');
      problem(`${key}: body does not match the documented schema: ${why}`, a.text.slice(0, 300));
    }
    // Every error code answered is in the error catalogue under this status (so in docs/errors.md and the OpenAPI document).
    if (a.status >= 400) {
      for (const e of (body as { errors?: { code?: unknown }[] }).errors ?? []) {
        if (typeof e.code === 'string' && !errors.has(e.code, a.status))
          problem(`${key}: error code ${e.code} is not in the error catalogue under ${a.status}`, a.text.slice(0, 300));
      }
    }
  }
  for (const [key, g] of grouped) out.problems.push(`${key}  [${g.count}×] e.g. ${g.example}`);
  return out;
}
