// The rating's request body and answer, shared by the API route and the bridge's signed route.
import { Type } from '@sinclair/typebox';
import { extend, uuid } from '../../api/schemas.js';
import { ratingSchema } from './csat.read.js';

export const Rating = Type.Object(
  {
    score: Type.Integer({ minimum: 1, maximum: 5, description: '1 (very dissatisfied) to 5 (very satisfied).' }),
    remark: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 2000, description: "The customer's words (personal data)." })),
  },
  { additionalProperties: false },
);

export const ratingAnswerSchema = extend(ratingSchema, { conversation_id: uuid }, { title: 'ConversationRatingGiven' });
