// Conversation attribute definitions and values as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import {
  applyAttributeValues,
  decideCreateAttribute,
  decideDeleteAttribute,
  decideUpdateAttribute,
  type AttributeDefinition,
} from '../../src/capabilities/conversation-attributes/conversation-attributes.decider.js';
import { decideSetAttributes } from '../../src/capabilities/conversations/attribute-values.js';
import { AppError, ValidationFailed } from '../../src/platform/errors.js';
import { codeOf, decider } from '../support/decider-spec.js';

const def = (over: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  id: 'a1',
  name: 'plan',
  dataType: 'string',
  options: null,
  description: null,
  archived: false,
  ...over,
});
const defs = [
  def({ id: 'a1', name: 'order_ref', dataType: 'string' }),
  def({ id: 'a2', name: 'seats', dataType: 'integer' }),
  def({ id: 'a3', name: 'amount', dataType: 'float' }),
  def({ id: 'a4', name: 'vip', dataType: 'boolean' }),
  def({ id: 'a5', name: 'renewal', dataType: 'date' }),
  def({ id: 'a6', name: 'category', dataType: 'list', options: ['billing', 'bug', 'question'] }),
  def({ id: 'a7', name: 'legacy', dataType: 'string', archived: true }),
];

/** The refusal's entries: code and field of each. */
function problems(fn: () => unknown): { code: string; field?: string }[] {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(ValidationFailed);
    return (e as AppError).entries().map((m) => ({ code: m.code, field: m.field }));
  }
  return [];
}

describe('conversation attributes (decider, unit)', () => {
  describe('definitions', () => {
    const create = decider(decideCreateAttribute);
    it('defines an attribute; a list names its options', () => {
      create
        .given({ count: 0, sameName: null })
        .when({ id: 'a9', name: 'category', dataType: 'list', options: ['a', 'b'] })
        .then({ type: 'conversation_attribute.created', payload: { name: 'category', data_type: 'list', options: ['a', 'b'], description: null } });
      create
        .given({ count: 0, sameName: null })
        .when({ id: 'a9', name: 'seats', dataType: 'integer' })
        .then({ type: 'conversation_attribute.created', payload: { data_type: 'integer', options: null } });
    });
    it('refuses a taken name, a list without options, options on another type, and more than 100 definitions', () => {
      create.given({ count: 0, sameName: def() }).when({ id: 'a9', name: 'plan', dataType: 'string' }).thenRefuses('attribute_exists');
      create.given({ count: 0, sameName: null }).when({ id: 'a9', name: 'c', dataType: 'list' }).thenRefuses('missing_field', 'options');
      create
        .given({ count: 0, sameName: null })
        .when({ id: 'a9', name: 'c', dataType: 'list', options: ['a', 'a'] })
        .thenRefuses('invalid_field', 'options');
      create
        .given({ count: 0, sameName: null })
        .when({ id: 'a9', name: 'c', dataType: 'string', options: ['a'] })
        .thenRefuses('invalid_field', 'options');
      create.given({ count: 100, sameName: null }).when({ id: 'a9', name: 'c', dataType: 'string' }).thenRefuses('limit_reached');
    });
    it('an update records only what changed; a deletion is refused while conversations hold values', () => {
      const update = decider(decideUpdateAttribute);
      update
        .given(def())
        .when({ id: 'a1', change: { description: 'x', archived: false } })
        .then({
          type: 'conversation_attribute.updated',
          payload: { id: 'a1', name: 'plan', description: 'x' },
        });
      update
        .given(def({ description: 'x' }))
        .when({ id: 'a1', change: { description: 'x' } })
        .thenNothing();
      update
        .given(null)
        .when({ id: 'a1', change: { archived: true } })
        .thenRefuses('not_found');
      update
        .given(def())
        .when({ id: 'a1', change: { options: ['a'] } })
        .thenRefuses('invalid_field', 'options');
      expect(codeOf(() => decideDeleteAttribute(def(), { inUse: true }))).to.equal('attribute_in_use');
      expect(decideDeleteAttribute(def(), { inUse: false }).map((e) => e.type)).to.deep.equal(['conversation_attribute.deleted']);
    });
  });

  describe('values', () => {
    it('accepts a value of each type that fits its definition, and null removes one', () => {
      const { values, changed } = applyAttributeValues(
        { order_ref: 'A-1', legacy: 'old' },
        { order_ref: null, seats: 12, amount: 9.5, vip: true, renewal: '2027-02-28', category: 'bug' },
        defs,
      );
      expect(values).to.deep.equal({ legacy: 'old', seats: 12, amount: 9.5, vip: true, renewal: '2027-02-28', category: 'bug' });
      expect(changed).to.deep.equal(['order_ref', 'seats', 'amount', 'vip', 'renewal', 'category']);
    });

    it('a value of the wrong type is refused, naming each attribute at fault', () => {
      expect(
        problems(() => applyAttributeValues({}, { order_ref: 5, seats: 1.5, amount: 'x', vip: 'yes', renewal: '2027-02-30', other: 1, legacy: 'new' }, defs)),
      ).to.deep.equal([
        { code: 'invalid_attribute_value', field: 'custom_attributes.order_ref' },
        { code: 'invalid_attribute_value', field: 'custom_attributes.seats' },
        { code: 'invalid_attribute_value', field: 'custom_attributes.amount' },
        { code: 'invalid_attribute_value', field: 'custom_attributes.vip' },
        { code: 'invalid_attribute_value', field: 'custom_attributes.renewal' },
        { code: 'unknown_attribute', field: 'custom_attributes.other' },
        { code: 'attribute_archived', field: 'custom_attributes.legacy' },
      ]);
    });

    it('a list attribute accepts only its options', () => {
      expect(problems(() => applyAttributeValues({}, { category: 'refund' }, defs))).to.deep.equal([
        { code: 'invalid_attribute_value', field: 'custom_attributes.category' },
      ]);
      expect(problems(() => applyAttributeValues({}, { category: 'Billing' }, defs))).to.have.length(1);
      expect(applyAttributeValues({}, { category: 'billing' }, defs).values).to.deep.equal({ category: 'billing' });
    });

    it('a conversation gets the whole resulting set; a change that changes nothing appends nothing; an unknown conversation is a 404', () => {
      const set = decider(decideSetAttributes);
      set
        .given({ conversation: { id: 'c1', contactId: 'k1', contactErased: false, values: { vip: true } }, definitions: defs })
        .when({ conversationId: 'c1', change: { seats: 3 } })
        .then({ type: 'conversation.attributes_updated', payload: { conversation_id: 'c1', custom_attributes: { vip: true, seats: 3 }, changed: ['seats'] } });
      const c1 = { id: 'c1', contactId: 'k1', contactErased: false, values: { vip: true } };
      set
        .given({ conversation: c1, definitions: defs })
        .when({ conversationId: 'c1', change: { vip: true, seats: null } })
        .thenNothing();
      // Its contact erased, the conversation's key is gone: a value set now would be sealed under a key no erasure reaches.
      set
        .given({ conversation: { ...c1, contactErased: true }, definitions: defs })
        .when({ conversationId: 'c1', change: { seats: 3 } })
        .thenRefuses('contact_erased');
      set
        .given({ conversation: null, definitions: defs })
        .when({ conversationId: 'c1', change: { seats: 3 } })
        .thenRefuses('not_found');
    });
  });
});
