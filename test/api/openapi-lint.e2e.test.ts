// `npm run lint:openapi`: Spectral (spectral:oas, .spectral.yaml) finds no error in
// docs/openapi.json, and the ruleset's own rule, which replaces the 3.0 reading of
// security requirements, still catches an undefined scheme or an unknown oauth2 scope.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPECTRAL = path.join(ROOT, 'node_modules/.bin/spectral');

interface Finding {
  code: string;
  message: string;
  severity: number; // 0 error, 1 warning, 2 info, 3 hint
  path: string[];
}

function lint(file: string): Promise<{ code: number; findings: Finding[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      SPECTRAL,
      ['lint', file, '--ruleset', path.join(ROOT, '.spectral.yaml'), '--fail-severity', 'error', '-f', 'json', '-q'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        try {
          resolve({ code, findings: stdout.trim() ? (JSON.parse(stdout) as Finding[]) : [], stderr });
        } catch (e) {
          reject(new Error(`spectral printed no JSON (exit ${code}): ${stdout.slice(0, 500)} ${stderr.slice(0, 500)}`, { cause: e }));
        }
      },
    );
  });
}

describe('npm run lint:openapi (Spectral over docs/openapi.json)', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(os.tmpdir(), 'cs-spectral-'))));
  after(async () => rm(dir, { recursive: true, force: true }));

  it('finds no error in the committed document, and no scope warning', async () => {
    const r = await lint(path.join(ROOT, 'docs/openapi.json'));
    const errors = r.findings.filter((f) => f.severity === 0);
    expect(errors.map((f) => `${f.code} ${f.path.join('.')}: ${f.message}`)).to.deep.equal([]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.findings.filter((f) => /scope/i.test(f.message))).to.deep.equal([]);
  });

  it('fails on a security requirement naming an undefined scheme or an oauth2 scope the scheme lacks', async () => {
    const doc = JSON.parse(await readFile(path.join(ROOT, 'docs/openapi.json'), 'utf8'));
    doc.components.securitySchemes.oauth = {
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: { 'a:read': 'read' } } },
    };
    doc.paths['/api/conversations'].get.security = [{ nowhere: [] }, { oauth: ['a:read', 'a:write'] }, { apiKey: ['conversations:read'] }];
    const broken = path.join(dir, 'openapi.json');
    await writeFile(broken, JSON.stringify(doc, null, 2));
    const r = await lint(broken);
    expect(r.code).to.not.equal(0);
    const errors = r.findings.filter((f) => f.severity === 0).map((f) => `${f.path.join('.')}: ${f.message}`);
    expect(errors).to.have.members([
      'paths./api/conversations.get.security.0.nowhere: "nowhere" is not a scheme defined in components.securitySchemes.',
      'paths./api/conversations.get.security.1.oauth.1: "a:write" is not among the scopes of the oauth2 scheme "oauth".',
    ]);
  });
});
