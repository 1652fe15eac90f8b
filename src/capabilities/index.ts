// Every capability, once, in order. Projectors apply in this order (parents
// before children), routes mount in it and workers start in it. Adding a
// capability is a folder, a migration and one line here.
import { EventCatalogue } from '../eventstore/catalogue.js';
import type { AnyProjector } from '../projections/engine.js';
import type { PersonalObject } from '../eventstore/forgettable.js';
import type { CapabilityModule } from './capability.js';
import { Additions } from './additions.js';
import { ErrorCatalogue } from '../platform/errors.js';
import { edgeErrors } from '../api/error-codes.js';
import { accessModule } from './access/index.js';
import { auditChainModule } from './audit-chain/index.js';
import { auditLogModule } from './audit-log/index.js';
import { businessHoursModule } from './business-hours/index.js';
import { slaModule } from './sla/index.js';
import { channelIdsOfTeam, channelsModule } from './channels/index.js';
import { companiesModule } from './companies/index.js';
import { contactIdsTagged, contactsModule } from './contacts/index.js';
import { contactNotesModule } from './contact-notes/index.js';
import { erasureModule } from './erasure/index.js';
import { conversationHasAttribute, conversationIdsOfTeam, conversationIdsTagged, conversationsModule } from './conversations/index.js';
import { csatModule } from './csat/index.js';
import { mentionsModule } from './mentions/index.js';
import { conversationAttributesModule } from './conversation-attributes/index.js';
import { exportsModule } from './exports/index.js';
import { feedModule } from './feed/index.js';
import { keysModule, revokeKeysOfReset } from './keys/index.js';
import { membersModule } from './members/index.js';
import { outboundModule } from './outbound/index.js';
import { rateLimitsModule } from './rate-limits/index.js';
import { tagsModule } from './tags/index.js';
import { teamsModule } from './teams/index.js';
import { savedRepliesModule } from './saved-replies/index.js';
import { usersModule } from './users/index.js';
import { viewsModule } from './views/index.js';
import { emailModule } from './email/index.js';
import { emailDomainsModule } from './email-domains/index.js';
import { uploadsModule } from './uploads/index.js';
import { jobsModule } from './jobs/index.js';
import { automationModule } from './automation/index.js';
import { contactMergeModule } from './contact-merge/index.js';
import { webhooksModule } from './webhooks/index.js';
import { workspacesModule } from './workspaces/index.js';

export const modules: readonly CapabilityModule[] = [
  feedModule,
  // Keys imports users; a password reset's revocation of the account's keys is handed to users here instead.
  usersModule({ passwordReset: revokeKeysOfReset }),
  workspacesModule,
  membersModule,
  // Conversations and channels import teams; teams gets their read functions here instead of importing them.
  teamsModule({ conversationIds: conversationIdsOfTeam, channelIds: channelIdsOfTeam }),
  // Likewise tags: conversations and contacts import it for their tag checks and names.
  tagsModule({ conversationIds: conversationIdsTagged, contactIds: contactIdsTagged }),
  accessModule,
  keysModule,
  // Before channels: an e-mail channel's domain must be one its workspace verified.
  emailDomainsModule,
  channelsModule,
  contactsModule,
  contactNotesModule,
  companiesModule,
  // Conversations imports the attribute definitions; a definition's deletion gets its in-use check here instead.
  conversationAttributesModule({ inUse: conversationHasAttribute }),
  // Views, sla and csat import conversations and add to it (its custom views; a conversation's `sla`,
  // `statistics` and `rating`): each module's `adds`, gathered in `additions` below.
  conversationsModule,
  // After conversations: its files are attached to parts (and follow their redaction and erasure).
  uploadsModule,
  // After conversations: its jobs change conversations through conversations' own commands.
  jobsModule,
  // After contacts and conversations: a merge moves a contact's conversations to another.
  contactMergeModule,
  csatModule,
  mentionsModule,
  viewsModule,
  savedRepliesModule,
  businessHoursModule,
  // After conversations: its projectors read nothing of theirs, but its worker reads their rows.
  slaModule,
  erasureModule,
  // After conversations and contacts: it files mail through their events.
  emailModule,
  webhooksModule,
  // After conversations, tags, saved replies and webhooks: its rules act through their commands, and its calls go
  // through the webhook outbox.
  automationModule,
  exportsModule,
  outboundModule,
  auditLogModule,
  rateLimitsModule,
  auditChainModule,
];

export const allProjectors = (): AnyProjector[] => modules.flatMap((m) => m.projectors ?? []);
/** What each module adds to the others' extension points (CoreDeps.additions). */
export const additions = (extra: readonly CapabilityModule[] = []): Additions => new Additions([...modules, ...extra].flatMap((m) => m.adds ?? []));
export const personalObjects = (): PersonalObject[] => modules.flatMap((m) => m.personal ?? []);
export const eventCatalogue = (): EventCatalogue => new EventCatalogue(modules.flatMap((m) => m.events));
/** Every error code a client can receive: the edge's and each capability's. */
export const errorCatalogue = (): ErrorCatalogue =>
  new ErrorCatalogue([{ by: 'edge', codes: edgeErrors }, ...modules.flatMap((m) => (m.errors ? [{ by: m.name, codes: m.errors }] : []))]);
