import type { ContactEvent } from './contacts.events.js';

export interface ContactInput {
  external_id?: string;
  email?: string;
  name?: string;
  phone?: string | null;
}

export interface ContactView {
  id: string;
  external_id: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
}

const FIELDS = ['external_id', 'email', 'name', 'phone'] as const;

/**
 * Finds or fills a contact from identity the caller asserts (spec 2.6: never
 * verified). An existing contact only gets its blank fields filled: an
 * unverified assertion must not overwrite what is already known.
 */
export function decideFindOrFillContact(newId: string, input: ContactInput, found: ContactView | null, channelId: string | null): { contactId: string; events: ContactEvent[] } {
  if (!found) {
    return {
      contactId: newId,
      events: [
        {
          type: 'contact.created',
          aggregate_type: 'contact',
          aggregate_id: newId,
          payload: {
            contact_id: newId,
            external_id: input.external_id ?? null,
            email: input.email ?? null,
            name: input.name ?? null,
            phone: input.phone ?? null,
            channel_id: channelId,
          },
        },
      ],
    };
  }
  const changes: Record<string, string> = {};
  for (const f of FIELDS) {
    const v = input[f];
    if (typeof v === 'string' && v !== '' && (found[f] === null || found[f] === '')) changes[f] = v;
  }
  return {
    contactId: found.id,
    events: Object.keys(changes).length
      ? [{ type: 'contact.updated', aggregate_type: 'contact', aggregate_id: found.id, payload: { contact_id: found.id, ...changes } }]
      : [],
  };
}
