// Erasure: forgetting a contact (DELETE /api/contacts/{id}). The mechanism is
// crypto-shredding (src/eventstore/forgettable.ts); this folder decides what an
// erasure covers. Its event, contact.erased, is the contacts capability's, so
// the contacts and conversations read models fold it where they live.
import { defineModule } from '../capability.js';
import { erasureRoutes } from './erasure.routes.js';

export const erasureModule = defineModule({ name: 'erasure', events: [], routes: erasureRoutes });
