// Contact merge: two contacts who are one person become one, as Intercom merges
// a lead into a user and Zendesk one end user into another. The rules of what
// goes over are contacts' own (decideMergeContact); this capability is the
// command and its route, which need conversations (the merged contact's
// conversations) beside contacts, and contacts imports neither.
import { defineModule } from '../capability.js';
import { contactMergeRoutes } from './contact-merge.routes.js';

export const contactMergeModule = defineModule({
  name: 'contact-merge',
  events: [],
  routes: contactMergeRoutes,
});
