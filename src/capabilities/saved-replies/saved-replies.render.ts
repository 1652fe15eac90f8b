// A saved reply rendered for a conversation: its contact (none once erased),
// the conversation, and the member sending it (none for a rule's reply).
// Shared by the render route and the automation rules' `reply_with`.
import type { Db } from '../../commands/command.js';
import { findContactRow } from '../contacts/index.js';
import { findMember } from '../members/index.js';
import type { SavedReplyRow } from './saved-replies.read.js';
import { parseTemplate, renderTemplate } from './saved-replies.template.js';

export async function renderForConversation(
  db: Db,
  tenantId: string,
  reply: Pick<SavedReplyRow, 'body'>,
  conversation: { id: string; contact_id: string },
  memberId: string | null,
): Promise<{ body: string; undefined_variables: string[] }> {
  const contact = await findContactRow(db, tenantId, conversation.contact_id);
  const person = contact && !contact.erased_at ? contact : null;
  const member = memberId ? await findMember(db, tenantId, memberId) : null;
  const lookup = (variable: string) => {
    switch (variable) {
      case 'contact.name':
        return person?.name;
      case 'contact.email':
        return person?.email;
      case 'conversation.id':
        return conversation.id;
      case 'member.name':
        return member?.name;
      default: {
        const key = variable.slice('contact.custom_attributes.'.length);
        const attrs = person?.custom_attributes ?? {};
        return Object.hasOwn(attrs, key) ? attrs[key] : undefined;
      }
    }
  };
  return renderTemplate(parseTemplate(reply.body), lookup);
}
