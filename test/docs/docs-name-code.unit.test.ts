// Docs that name code are checked against it: every `src/…` (test/, bench/,
// scripts/) path a doc names, in backticks or as a link, exists, and every
// function, class or type it names in backticks (`exportLines`,
// `PostgresEventStore`, `compactJsonb()`) is declared somewhere in the code, so
// a rename that leaves a doc behind fails here, not in a reader's hands months
// later. Names of other projects' code (EventStoreDB's server, its client) are
// listed below with where they come from, and not checked.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CODE_DIRS = ['src', 'test', 'bench', 'scripts'];
const CODE_FILE = /\.(ts|mjs|cjs|js|sql)$/;

/** Names the docs give of code that is not this repository's. */
const OTHER_PROJECTS: Record<string, string> = {
  GitInfo: "EventStoreDB's server source (the build's version stamp)",
  IndexPool: "EventStoreDB's server source",
  AsSharedStream: "EventStoreDB's server source",
  NotSupportedException: '.NET',
  MaxAppendSize: "EventStoreDB's server option",
  IdempotentNotReady: "EventStoreDB's server source (an append's result)",
  AlreadyCommitted: "EventStoreDB's server source (an append's result)",
  WrongExpectedVersion: "EventStoreDB's server source (an append's result)",
  CheckCommit: "EventStoreDB's server source (the idempotence check)",
  ReadStream: "@eventstore/db-client's read stream",
  parseMetadata: "@eventstore/db-client's event conversion",
  nodePreference: "@eventstore/db-client's connection option",
  readStream: "@eventstore/db-client's client",
  appendToStream: "@eventstore/db-client's client",
  subscribeToAll: "@eventstore/db-client's client",
  WrongExpectedVersionError: "@eventstore/db-client's error",
  StreamNotFoundError: "@eventstore/db-client's error",
  actualVersion: "@eventstore/db-client's WrongExpectedVersionError field",
  HttpOnly: 'the cookie attribute (RFC 6265)',
  EventSource: "the browser's Server-Sent Events client (HTML Living Standard)",
  ConnectionResetError: "Python's (Patroni's) exception",
};

function files(dir: string, match: RegExp, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) files(p, match, out);
    else if (match.test(e.name)) out.push(p);
  }
  return out;
}

const docs = [path.join(ROOT, 'README.md'), ...files(path.join(ROOT, 'docs'), /\.md$/)];
// This file aside: its list of other projects' names would declare them.
const code = CODE_DIRS.flatMap((d) => files(path.join(ROOT, d), CODE_FILE))
  .filter((f) => f !== fileURLToPath(import.meta.url))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');

/** Declared: as a function, class, interface, type, enum or binding, or as a method or member at a line's start. */
function declared(name: string): boolean {
  const binding = new RegExp(`\\b(?:function\\*?|class|interface|type|enum|const|let|var)\\s+${name}\\b`);
  const member = new RegExp(`^\\s*(?:(?:export|async|static|private|protected|public|readonly|get|set|override)\\s+)*${name}\\s*[(<:=?]`, 'm');
  return binding.test(code) || member.test(code);
}

/** Folders a run makes (git ignores them): a doc may name them, and a fresh clone has none. */
const MADE_BY_RUNS = ['bench/.data', 'bench/.build'];

/** A repository path as a doc writes it: exact, or a test named without its `.test.ts`, or a module without `.ts`. */
const pathExists = (p: string) =>
  [p, `${p}.ts`, `${p}.test.ts`].some((c) => existsSync(path.join(ROOT, c)) && (c === p || statSync(path.join(ROOT, c)).isFile()));

describe('docs name code that exists (unit)', () => {
  const stale: string[] = [];
  const named = new Set<string>();
  for (const doc of docs) {
    const text = readFileSync(doc, 'utf8');
    const where = path.relative(ROOT, doc);
    for (const [, quoted] of text.matchAll(/`([^`\n]+)`/g)) {
      const repoPath = /^(?:src|test|bench|scripts)\/[\w./-]+/.exec(quoted!);
      if (repoPath) {
        const p = repoPath[0].replace(/\.$/, '');
        if (!MADE_BY_RUNS.some((d) => p === d || p.startsWith(`${d}/`)) && !pathExists(p)) stale.push(`${where}: the path \`${quoted}\``);
        continue;
      }
      const name = /^((?:[a-z][a-z0-9]*|[A-Z][a-z0-9]+)[A-Z][A-Za-z0-9]*)(?:\(\))?$/.exec(quoted!)?.[1];
      if (name && !(name in OTHER_PROJECTS)) {
        named.add(name);
        if (!declared(name)) stale.push(`${where}: \`${quoted}\`, declared nowhere in ${CODE_DIRS.join(', ')}`);
      }
    }
    for (const [, link] of text.matchAll(/\]\((?:\.\.\/)?((?:src|test|bench|scripts)\/[^)#\s]+)/g)) {
      if (!pathExists(link!)) stale.push(`${where}: the link to ${link}`);
    }
  }

  it('every path and every function, class or type the docs name is in the code', () => {
    expect(stale, stale.join('\n')).to.deep.equal([]);
    // The check reads what the docs name, or it would pass on nothing.
    expect(named.size).to.be.above(100);
  });

  it('lists no other project’s name that is this repository’s own (or a stale entry)', () => {
    const own = Object.keys(OTHER_PROJECTS).filter(declared);
    expect(own, `declared here after all: ${own.join(', ')}`).to.deep.equal([]);
  });
});
