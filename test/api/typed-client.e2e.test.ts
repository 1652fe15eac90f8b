// The typed client of docs/client: the example (openapi-fetch over the types
// openapi-typescript generated from docs/openapi.json) type-checks with tsc,
// a call the types forbid does not, and the example runs against a service.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import { mintKey, newWorkspace, startTestService, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = path.join(ROOT, 'docs/client/example.ts');

/** tsc over `files` (strict, NodeNext), with extra in-memory files; the diagnostics as text. */
function typeCheck(files: string[], virtual: Record<string, string> = {}): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noUncheckedIndexedAccess: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => f in virtual || fileExists.call(host, f);
  host.readFile = (f) => virtual[f] ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, onError, create) =>
    f in virtual ? ts.createSourceFile(f, virtual[f]!, lang) : getSourceFile.call(host, f, lang, onError, create);
  const program = ts.createProgram([...files, ...Object.keys(virtual)], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.relative(ROOT, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('typed client (openapi-typescript + openapi-fetch)', function () {
  this.timeout(120_000);

  it('type-checks docs/client/example.ts, and refuses calls the API does not accept', () => {
    expect(typeCheck([EXAMPLE])).to.deep.equal([]);
    const wrong = path.join(ROOT, 'docs/client/__wrong__.ts');
    const problems = typeCheck([], {
      [wrong]: `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';
const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
export const a = api.POST('/api/conversations', { body: { body: 'no channel_id' } });
export const b = api.GET('/api/conversation', {});
export const c = api.POST('/api/conversations/{id}/reply', { params: { path: { id: 'x' } }, body: { body: 'hi', message_type: 'shout' } });
export const d = async () => (await api.GET('/api/me')).data?.no_such_field;
`,
    });
    const text = problems.join('\n');
    expect(text).to.match(/channel_id/);
    expect(text).to.match(/"\/api\/conversation"/);
    expect(text).to.match(/"shout"/);
    expect(text).to.match(/no_such_field/);
  });

  // The service starts after the type check: the compiler holds this process's event loop for seconds, and a
  // service in the same process would meet it as a stall (its pool's connects time out meanwhile).
  describe('against a service', () => {
    let t: TestService;
    before(async () => (t = await startTestService('typed_client')));
    after(async () => t.close());

    it('runs the example against a service', async () => {
      const owner = await newWorkspace(t);
      const key = await mintKey(t, owner, ['conversations:read', 'conversations:write']);
      const channel = await createChannel(t, owner);
      const { example } = (await import(EXAMPLE)) as { example: (base: string, key: string, channel: string) => Promise<Record<string, unknown>> };
      const out = await example(t.service.url, key.secret, channel.id);
      expect(out).to.include({ parts: 3, reply: 'comment', state: 'closed', missing: 'not_found' });
      expect(out.closed).to.deep.equal([out.conversation]);
    });
  });
});
