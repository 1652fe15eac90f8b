// The filter language: checking (every rejection names its path) and
// compiling (values only as bindings, never in the SQL text).
import { expect } from 'chai';
import { ValidationFailed, type ErrorEntry } from '../../src/platform/errors.js';
import {
  checkQuery,
  compile,
  compileQuery,
  escapeLike,
  isInstant,
  likePattern,
  type FilterLanguage,
  type SqlContext,
} from '../../src/platform/query/filter.js';
import { BODY_PROBE_LIMIT, forgetTermStatistics } from '../../src/capabilities/conversations/conversations.search.js';
import { conversationSearch } from '../../src/capabilities/conversations/index.js';
import { contactSearch } from '../../src/capabilities/contacts/contacts.search.js';

const U1 = '6f1c1e7a-3b7e-4c7a-9a55-0a1b2c3d4e5f';
const U2 = '0e9f8a7b-6c5d-4e3f-8a1b-2c3d4e5f6a7b';
const T = '11111111-2222-4333-8444-555555555555';
const LIST: SqlContext = { tenantId: T, purpose: 'list' };
const cq = (lang: FilterLanguage, raw: unknown, ctx: SqlContext = LIST) => compileQuery(lang, raw, ctx);

function rejects(raw: unknown, lang = conversationSearch): ErrorEntry[] {
  try {
    checkQuery(lang, raw);
  } catch (e) {
    expect(e).to.be.instanceOf(ValidationFailed);
    const err = e as ValidationFailed;
    expect(err.status).to.equal(400);
    const entries = err.entries();
    for (const x of entries) expect(x.code).to.equal('invalid_query');
    return entries;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}
const fieldsOf = (raw: unknown, lang = conversationSearch) => rejects(raw, lang).map((e) => e.field);

describe('filter language (unit)', () => {
  describe('compiles to parameterised SQL', () => {
    it('a leaf: the value is a binding, the column comes from the declaration', async () => {
      const s = await cq(conversationSearch, { field: 'subject', operator: '=', value: "x' OR 1=1 --" });
      expect(s.sql).to.equal('(conversations.subject = ?::text)');
      expect(s.bindings).to.deep.equal(["x' OR 1=1 --"]);
    });

    it('groups: AND / OR, two levels, bindings in order', async () => {
      const s = await cq(conversationSearch, {
        operator: 'AND',
        value: [
          { field: 'state', operator: 'IN', value: ['open', 'snoozed'] },
          {
            operator: 'OR',
            value: [
              { field: 'assignee_id', operator: '=', value: null },
              { field: 'assignee_id', operator: '=', value: U1.toUpperCase() },
            ],
          },
        ],
      });
      expect(s.sql).to.equal('((conversations.state = ANY(?::text[])) AND ((conversations.assignee_id IS NULL) OR (conversations.assignee_id = ?::uuid)))');
      expect(s.bindings).to.deep.equal([['open', 'snoozed'], U1]);
    });

    it('!= keeps rows where the column is null; NIN likewise on nullable columns', async () => {
      expect((await cq(conversationSearch, { field: 'assignee_id', operator: '!=', value: U1 })).sql).to.equal(
        '(conversations.assignee_id IS DISTINCT FROM ?::uuid)',
      );
      expect((await cq(conversationSearch, { field: 'assignee_id', operator: '!=', value: null })).sql).to.equal('(conversations.assignee_id IS NOT NULL)');
      expect((await cq(conversationSearch, { field: 'team_id', operator: 'NIN', value: [U1] })).sql).to.equal(
        '(conversations.team_id IS NULL OR NOT (conversations.team_id = ANY(?::text[])))',
      );
    });

    it('contains / starts / ends with escape LIKE wildcards', async () => {
      expect(escapeLike('50%_off\\')).to.equal('50\\%\\_off\\\\');
      expect(likePattern('~', 'a%')).to.equal('%a\\%%');
      expect(likePattern('^', 'a')).to.equal('a%');
      expect(likePattern('$', 'a')).to.equal('%a');
      const s = await cq(conversationSearch, { field: 'subject', operator: '^', value: '100%' });
      expect(s.sql).to.equal("(conversations.subject ILIKE ? ESCAPE '\\')");
      expect(s.bindings).to.deep.equal(['100\\%%']);
    });

    it("body is full-text search over the parts' stored vectors, the words a binding, in the shape its purpose needs", async () => {
      const q = { field: 'body', operator: '~', value: 'refund "credit card"' };
      const tsq = "websearch_to_tsquery('simple'::regconfig, ?::text)";
      // a page without a probe: EXISTS per conversation
      const walk = await cq(conversationSearch, q);
      expect(walk.sql).to.equal(
        `(EXISTS (SELECT 1 FROM conversation_parts p WHERE p.tenant_id = conversations.tenant_id AND p.conversation_id = conversations.id AND p.body_tsv @@ ${tsq}))`,
      );
      expect(walk.bindings).to.deep.equal(['refund "credit card"']);
      expect(walk.sql).to.not.include('LIKE');
      // counts: one index scan, a hashed lookup per row
      const count = await cq(conversationSearch, q, { tenantId: T, purpose: 'count' });
      expect(count.sql).to.equal(
        `(conversations.id IN (SELECT p.conversation_id FROM conversation_parts p WHERE p.tenant_id = ?::uuid AND p.body_tsv @@ ${tsq}))`,
      );
      expect(count.bindings).to.deep.equal([T, 'refund "credit card"']);
      // a page with a probe: a rare term lists its conversations by id, a common one walks
      const probes: unknown[][] = [];
      /** the database as the field sees it: the planner's estimate of matching parts, the table's size, and a probe finding `rows` parts */
      const lookup = (rows: number, estimated = 100, all = 500_000, unlisted = 1250) => ({
        raw: async (sql: string, bindings: readonly unknown[]) => {
          if (sql.startsWith('EXPLAIN'))
            return { rows: [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': bindings[0] === 'qqzzxxunlistedword' ? unlisted : estimated } }] }] };
          if (sql.includes('pg_class')) return { rows: [{ reltuples: all }] };
          expect(sql).to.include('p.body_tsv @@').and.include('LIMIT ?');
          probes.push([...bindings]);
          return { rows: Array.from({ length: rows }, (_, i) => ({ conversation_id: i % 2 ? U1 : U2 })) };
        },
      });
      const at = (l: ReturnType<typeof lookup>): SqlContext => (forgetTermStatistics(), { ...LIST, lookup: l });
      const rare = await cq(conversationSearch, q, at(lookup(3)));
      expect(rare).to.deep.equal({ sql: '(conversations.id = ANY(?::uuid[]))', bindings: [[U2, U1]] });
      expect(probes[0]).to.deep.equal([T, 'refund "credit card"', BODY_PROBE_LIMIT]);
      const none = await cq(conversationSearch, q, at(lookup(0)));
      expect(none).to.deep.equal({ sql: '(conversations.id = ANY(?::uuid[]))', bindings: [[]] });
      // a term the statistics call common walks without a probe
      const before = probes.length;
      expect(await cq(conversationSearch, q, at(lookup(0, 35_000)))).to.deep.equal(walk);
      expect(probes.length).to.equal(before);
      // not common by share, no more than the guess for an unlisted word, or an unanalysed table: probed
      const probed = { sql: '(conversations.id = ANY(?::uuid[]))' };
      expect(await cq(conversationSearch, q, at(lookup(3, 35_000, 10_000_000)))).to.deep.include(probed);
      expect(await cq(conversationSearch, q, at(lookup(3, 17_500, 500_000, 17_500)))).to.deep.include(probed);
      expect(await cq(conversationSearch, q, at(lookup(3, 35_000, -1)))).to.deep.include(probed);
      // counts with a lookup: every matching conversation, by id, with the checkpoint the probe saw
      const seen: number[] = [];
      const counted = await cq(conversationSearch, q, {
        tenantId: T,
        purpose: 'count',
        observedSeqs: seen,
        lookup: {
          raw: async (sql: string, bindings: readonly unknown[]) => {
            expect(sql)
              .to.include('FROM projection_checkpoints WHERE tenant_id = ?::uuid')
              .and.include('ARRAY(SELECT DISTINCT p.conversation_id FROM conversation_parts p WHERE p.tenant_id = ?::uuid AND p.body_tsv @@');
            expect(bindings).to.deep.equal([T, T, 'refund "credit card"']);
            return { rows: [{ seq: '42', ids: [U1, U2] }] };
          },
        },
      });
      expect(counted).to.deep.equal({ sql: '(conversations.id = ANY(?::uuid[]))', bindings: [[U1, U2]] });
      expect(seen).to.deep.equal([42]);
      // and a probe that finds as many parts as it may walks after all
      expect(await cq(conversationSearch, q, at(lookup(BODY_PROBE_LIMIT)))).to.deep.equal(walk);
    });

    it('tags: has, has not, any of, none of, untagged', async () => {
      expect(await cq(conversationSearch, { field: 'tag_ids', operator: '=', value: U1 })).to.deep.equal({
        sql: '(conversations.tag_ids @> ?::uuid[])',
        bindings: [[U1]],
      });
      expect((await cq(conversationSearch, { field: 'tag_ids', operator: 'IN', value: [U1, U2] })).sql).to.equal('(conversations.tag_ids && ?::uuid[])');
      expect((await cq(conversationSearch, { field: 'tag_ids', operator: 'NIN', value: [U1] })).sql).to.equal('(NOT (conversations.tag_ids && ?::uuid[]))');
      expect((await cq(conversationSearch, { field: 'tag_ids', operator: '=', value: null })).sql).to.equal('(cardinality(conversations.tag_ids) = 0)');
    });

    it('instants are compared as timestamptz, with any offset', async () => {
      const s = await cq(conversationSearch, { field: 'created_at', operator: '>=', value: '2026-01-31T09:00:00.123456+02:00' });
      expect(s).to.deep.equal({ sql: '(conversations.created_at >= ?::timestamptz)', bindings: ['2026-01-31T09:00:00.123456+02:00'] });
    });

    it('contacts: e-mail ignoring case, company, archived, custom attributes by key (key and value both bindings)', async () => {
      expect((await cq(contactSearch, { field: 'email', operator: '=', value: 'A@B.example' })).sql).to.equal('(lower(contacts.email) = lower(?::text))');
      expect((await cq(contactSearch, { field: 'archived', operator: '=', value: false })).sql).to.equal('((contacts.archived_at IS NOT NULL) = ?::boolean)');
      expect((await cq(contactSearch, { field: 'company_id', operator: '=', value: null })).sql).to.match(/^\(NOT EXISTS \(SELECT 1 FROM contact_companies/);
      const ca = await cq(contactSearch, { field: 'custom_attributes.plan tier', operator: '>', value: 3 });
      expect(ca.sql).to.equal('(jsonb_typeof(contacts.custom_attributes -> ?::text) = ?::text AND contacts.custom_attributes -> ?::text > ?::jsonb)');
      expect(ca.bindings).to.deep.equal(['plan tier', 'number', 'plan tier', '3']);
      expect((await cq(contactSearch, { field: 'custom_attributes.vip', operator: '=', value: true })).bindings).to.deep.equal(['vip', 'true']);
    });
  });

  describe('rejects, naming the path', () => {
    it('a query that is not a condition or a group', async () => {
      for (const raw of [null, 'state=open', 42, [], true]) expect(fieldsOf(raw)).to.deep.equal(['query']);
    });

    it('an unknown field, and a field of the other language', async () => {
      expect(
        fieldsOf({
          operator: 'AND',
          value: [
            { field: 'state', operator: '=', value: 'open' },
            { field: 'nope', operator: '=', value: 1 },
          ],
        }),
      ).to.deep.equal(['query.value.1.field']);
      expect(fieldsOf({ field: 'email', operator: '=', value: 'a@b.example' })).to.deep.equal(['query.field']);
      expect(fieldsOf({ field: 'body', operator: '~', value: 'x' }, contactSearch)).to.deep.equal(['query.field']);
      expect(fieldsOf({ field: 42, operator: '=', value: 'x' })).to.deep.equal(['query.field']);
      expect(fieldsOf({ field: 'custom_attributes.', operator: '=', value: 'x' }, contactSearch)).to.deep.equal(['query.field']);
      expect(fieldsOf({ field: 'custom_attributes.bad"key', operator: '=', value: 'x' }, contactSearch)).to.deep.equal(['query.field']);
    });

    it('an unknown operator, and one the field does not allow', async () => {
      expect(fieldsOf({ field: 'state', operator: 'LIKE', value: 'open' })).to.deep.equal(['query.operator']);
      expect(
        fieldsOf({
          operator: 'AND',
          value: [
            { field: 'state', operator: '=', value: 'open' },
            { field: 'state', operator: '~', value: 'op' },
          ],
        }),
      ).to.deep.equal(['query.value.1.operator']);
      expect(fieldsOf({ field: 'body', operator: '=', value: 'x' })).to.deep.equal(['query.operator']);
      expect(fieldsOf({ field: 'created_at', operator: '~', value: '2026' })).to.deep.equal(['query.operator']);
      expect(fieldsOf({ field: 'archived', operator: '<', value: true }, contactSearch)).to.deep.equal(['query.operator']);
      expect(fieldsOf({ operator: 'XOR', value: [] })).to.deep.equal(['query.operator']);
      expect(fieldsOf({ operator: { $ne: 1 }, value: [] })).to.deep.equal(['query.operator']);
    });

    it('a value of the wrong type', async () => {
      expect(fieldsOf({ field: 'state', operator: '=', value: 'pending' })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'assignee_id', operator: '=', value: 'not-a-uuid' })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'assignee_id', operator: '=', value: { id: U1 } })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'subject', operator: '=', value: 7 })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'archived', operator: '=', value: 'false' }, contactSearch)).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'custom_attributes.n', operator: '<', value: true }, contactSearch)).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'custom_attributes.n', operator: '~', value: 3 }, contactSearch)).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'custom_attributes.n', operator: '=', value: [1] }, contactSearch)).to.deep.equal(['query.value']);
    });

    it('dates that are not instants: a calendar day, no offset, an impossible day, junk', async () => {
      for (const v of [
        '2026-01-31',
        '2026-01-31T09:00:00',
        '2026-01-31t09:00:00z',
        '2026-02-30T00:00:00Z',
        '2026-01-31T24:00:00Z',
        '0000-01-01T00:00:00Z',
        '2026-01-31T09:00:00+15:00',
        'yesterday',
        1769850000,
      ]) {
        expect(fieldsOf({ field: 'updated_at', operator: '<', value: v }), String(v)).to.deep.equal(['query.value']);
      }
      expect(isInstant('2026-01-31T09:00:00Z')).to.equal(true);
      expect(isInstant('2024-02-29T23:59:59.999999-05:30')).to.equal(true);
    });

    it('null where it makes no sense: a non-nullable field, or with an operator other than = / !=', async () => {
      expect(fieldsOf({ field: 'state', operator: '=', value: null })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'channel_id', operator: '!=', value: null })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'snoozed_until', operator: '<', value: null })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'assignee_id', operator: 'IN', value: [null] })).to.deep.equal(['query.value.0']);
    });

    it('IN / NIN lists: not a list, empty, too long, a bad element', async () => {
      expect(fieldsOf({ field: 'state', operator: 'IN', value: 'open' })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'state', operator: 'NIN', value: [] })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'contact_id', operator: 'IN', value: Array(101).fill(U1) })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'contact_id', operator: 'IN', value: [U1, 'x', U2, 3] })).to.deep.equal(['query.value.1', 'query.value.3']);
    });

    it('depth beyond two levels of groups, and groups of 0 or more than 15 entries', async () => {
      const leaf = { field: 'state', operator: '=', value: 'open' };
      expect(() => checkQuery(conversationSearch, { operator: 'AND', value: [{ operator: 'OR', value: [leaf] }] })).to.not.throw();
      expect(fieldsOf({ operator: 'AND', value: [leaf, { operator: 'OR', value: [{ operator: 'AND', value: [leaf] }] }] })).to.deep.equal([
        'query.value.1.value.0',
      ]);
      expect(fieldsOf({ operator: 'AND', value: [] })).to.deep.equal(['query.value']);
      expect(fieldsOf({ operator: 'AND', value: Array(16).fill(leaf) })).to.deep.equal(['query.value']);
      expect(() => checkQuery(conversationSearch, { operator: 'AND', value: Array(15).fill(leaf) })).to.not.throw();
      expect(fieldsOf({ operator: 'OR', value: leaf })).to.deep.equal(['query.value']);
      // a hostile, deeply nested tree is refused at the third level, not walked
      let deep: unknown = leaf;
      for (let i = 0; i < 10_000; i++) deep = { operator: 'AND', value: [deep] };
      expect(fieldsOf(deep)).to.deep.equal(['query.value.0.value.0']);
    });

    it('unknown keys and a missing value', async () => {
      expect(fieldsOf({ field: 'state', operator: '=', value: 'open', not: true })).to.deep.equal(['query.not']);
      expect(fieldsOf({ field: 'state', operator: '=' })).to.deep.equal(['query.value']);
      expect(fieldsOf({ operator: 'AND' })).to.deep.equal(['query.value']);
    });

    it('text Postgres cannot store, over-long strings, empty contains, non-finite numbers', async () => {
      expect(fieldsOf({ field: 'subject', operator: '~', value: 'a\u0000b' })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'body', operator: '~', value: '\ud800' })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'subject', operator: '=', value: 'x'.repeat(1001) })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'subject', operator: '~', value: '' })).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'custom_attributes.n', operator: '>', value: Infinity }, contactSearch)).to.deep.equal(['query.value']);
      expect(fieldsOf({ field: 'custom_attributes.n', operator: '=', value: NaN }, contactSearch)).to.deep.equal(['query.value']);
      // a huge but finite number is a value like any other
      expect((await cq(contactSearch, { field: 'custom_attributes.n', operator: '<', value: 1e308 })).bindings).to.deep.equal(['n', 'number', 'n', '1e+308']);
    });

    it('reports every problem of a query at once, each with its own path', async () => {
      const entries = rejects({
        operator: 'OR',
        value: [
          { field: 'nope', operator: '=', value: 1 },
          { field: 'state', operator: '>', value: 'open' },
          { field: 'assignee_id', operator: '=', value: 'me' },
        ],
      });
      expect(entries.map((e) => e.field)).to.deep.equal(['query.value.0.field', 'query.value.1.operator', 'query.value.2.value']);
      expect(entries[0]!.message).to.include('nope').and.include('not a field of conversations');
    });
  });

  it('compile() of a checked tree equals compileQuery()', async () => {
    const raw = {
      operator: 'OR',
      value: [
        { field: 'subject', operator: '$', value: 'x' },
        { field: 'contact_id', operator: '=', value: U2 },
      ],
    };
    expect(await compile(checkQuery(conversationSearch, raw), LIST)).to.deep.equal(await cq(conversationSearch, raw));
  });
});
