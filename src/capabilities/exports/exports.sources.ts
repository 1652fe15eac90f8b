// Where an export reads the contact's data: other capabilities' read functions
// (their index.ts exports), never their tables. Every other capability the
// export depends on is named in this file only, so when one grows a better read
// function there is one place to switch.
import type { Db } from '../../commands/command.js';
import type { Static } from '../../api/schemas.js';
import { companyIdsOf, contactErasure, findContactRow, renderContacts, type contactSchema } from '../contacts/index.js';
import { companiesByIds, renderCompany, type companySchema } from '../companies/index.js';
import { conversationsOfContact, partsPage, renderPart, type ConversationAnswer, type ConversationAnswers, type partSchema } from '../conversations/index.js';
import { eventsAbout, type FeedTable } from '../feed/index.js';
import { recipientsOfContact, type recipientSchema } from '../outbound/index.js';

export { companySchema, type CompanyRow } from '../companies/index.js';
export { contactSchema } from '../contacts/index.js';
export { ConversationAnswers, partSchema } from '../conversations/index.js';
export { recipientSchema } from '../outbound/index.js';
export type { ContactEvent } from '../contacts/index.js';
export { feedTable, type FeedTable } from '../feed/index.js';

type Json = Record<string, unknown>;
// What each source gives is typed from the schema of the answer it is rendered as.
type Contact = Static<typeof contactSchema>;
type Company = Static<typeof companySchema>;
type Part = Static<typeof partSchema>;
type Recipient = Static<typeof recipientSchema> & { collection_name: string };

export interface ExportSources {
  /** The contact rendered with `type: "contact"`, or null when the workspace has no such contact. */
  contact(db: Db, tenantId: string, contactId: string): Promise<Contact | null>;
  /** Whether the contact was erased (then there is nothing to export: 410 contact_erased). */
  erased(db: Db, tenantId: string, contactId: string): Promise<boolean>;
  /** The companies the contact belongs to, rendered with `type: "company"`. */
  companies(db: Db, tenantId: string, contactId: string): Promise<Company[]>;
  /** The contact's conversations, rendered, oldest first, without parts. */
  conversations(db: Db, tenantId: string, contactId: string): Promise<ConversationAnswer[]>;
  /** The contact's outbound recipient records (which campaigns reached them, and how), oldest first. */
  outbound(db: Db, tenantId: string, contactId: string): Promise<Recipient[]>;
  /** A page of a conversation's parts, rendered, after `afterSeq`, with the last seq. */
  parts(db: Db, tenantId: string, conversationId: string, afterSeq: number, limit: number): Promise<{ parts: Part[]; lastSeq: number }>;
  /** A page of the envelopes of events about these aggregates (payloads sealed as the feed keeps them), from the feed's table. */
  events(db: Db, feed: FeedTable, tenantId: string, aggregateIds: readonly string[], afterSeq: number, limit: number): Promise<(Json & { seq: number })[]>;
}

/** The sources, the conversations answered as their routes answer them (with what other capabilities add). */
export const exportSources = (answers: ConversationAnswers): ExportSources => ({
  // The contact as GET /api/contacts/{id} renders it (custom attributes and companies included).
  async contact(db, tenantId, contactId) {
    const row = await findContactRow(db, tenantId, contactId);
    return row ? (await renderContacts(db, tenantId, [row]))[0]! : null;
  },

  async erased(db, tenantId, contactId) {
    return !!(await contactErasure(db, tenantId, contactId))?.erased_at;
  },

  async companies(db, tenantId, contactId) {
    const ids = await companyIdsOf(db, tenantId, contactId);
    const byId = new Map((await companiesByIds(db, tenantId, ids)).map((c) => [c.id, c]));
    // in the order the contact joined them
    return ids.flatMap((id) => (byId.has(id) ? [renderCompany(byId.get(id)!)] : []));
  },

  async conversations(db, tenantId, contactId) {
    // with the fields other capabilities add (`sla`, `statistics`, `rating`), read in one batch
    return answers.complete(
      db,
      tenantId,
      (await conversationsOfContact(db, tenantId, contactId, answers)).map((row) => answers.render(row)),
    );
  },

  outbound: (db, tenantId, contactId) => recipientsOfContact(db, tenantId, contactId),

  async parts(db, tenantId, conversationId, afterSeq, limit) {
    const rows = await partsPage(db, tenantId, conversationId, afterSeq, limit);
    return { parts: rows.map(renderPart), lastSeq: rows.at(-1)?.seq ?? afterSeq };
  },

  events: (db, feed, tenantId, aggregateIds, afterSeq, limit) => eventsAbout(db, feed, tenantId, aggregateIds, afterSeq, limit),
});

export { renderCompany };
