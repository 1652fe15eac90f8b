import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { eventCatalogue, modules } from '../../src/capabilities/index.js';
import { renderEventsMarkdown } from '../../src/eventstore/catalogue-doc.js';
import { decideInbound } from '../../src/capabilities/conversations/conversations.decider.js';

const catalogue = eventCatalogue();
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('event catalogue (unit)', () => {
  it('is built from every module, each type declared once', () => {
    expect(catalogue.types().length).to.equal(modules.flatMap((m) => m.events).length);
    expect(catalogue.types()).to.include.members(['conversation_part.created', 'webhook_endpoint.created', 'member.joined']);
  });

  it('accepts what a decider emits and names what is wrong with anything else', () => {
    const events = decideInbound(
      {
        channelId: uuid(1),
        defaultTeamId: null,
        conversationId: uuid(2),
        contactId: uuid(3),
        partId: uuid(4),
        externalId: 't',
        messageId: null,
        contact: { external_id: 'x' },
        content: 'hi',
        attachments: [],
        at: '2026-01-01T00:00:00.000Z',
      },
      { thread: null, messageFiled: false, contact: null },
    );
    for (const e of events) expect(catalogue.check(e), e.type).to.deep.equal([]);
    const part = events[2]!;
    expect(catalogue.check({ ...part, payload: { ...part.payload, stray: 1 } })[0]).to.match(/must NOT have additional properties \(stray\)/);
    expect(catalogue.check({ ...part, payload: { ...part.payload, part_type: 'shout' } })).to.not.deep.equal([]);
    expect(catalogue.check({ ...part, aggregate_type: 'contact' })[0]).to.match(/aggregate_type/);
    expect(catalogue.check({ type: 'conversation.exploded', aggregate_type: 'conversation', payload: {} })).to.deep.equal([
      'conversation.exploded is not in the catalogue',
    ]);
  });

  it('docs/events.md is what the catalogue generates (run `npm run docs:events` after changing an event)', async () => {
    const committed = await readFile(new URL('../../docs/events.md', import.meta.url), 'utf8');
    expect(committed === renderEventsMarkdown(catalogue), 'docs/events.md is stale: run npm run docs:events').to.equal(true);
    // Every index link lands on a heading, as GitHub makes its anchor (lower case; punctuation but '_' and '-' dropped).
    const anchors = new Set(
      [...committed.matchAll(/^#+ (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^a-z0-9_\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const links = [...committed.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).to.be.greaterThan(50);
    expect(links.filter((l) => !anchors.has(l))).to.deep.equal([]);
  });
});
