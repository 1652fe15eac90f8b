// Request schemas shared by conversation-creating routes (teammate and inbound).
export const contactSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    external_id: { type: 'string', minLength: 1, maxLength: 255 },
    name: { type: 'string', maxLength: 255 },
    email: { type: 'string', format: 'email', maxLength: 320 },
    phone: { type: ['string', 'null'], maxLength: 64 },
  },
};

export const attachmentsSchema = {
  type: 'array',
  maxItems: 20,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
      name: { type: 'string', maxLength: 255 },
      content_type: { type: 'string', maxLength: 255 },
      // Bytes. Capped at 2^53 - 1, the largest integer every JSON reader holds exactly (1e300 is an "integer" too).
      size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "The file's size in bytes, at most 2^53 - 1 (9007199254740991)." },
    },
  },
};
