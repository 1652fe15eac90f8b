import type { Knex } from 'knex';
import * as m001 from './001_event_store.js';
import * as m002 from './002_platform.js';
import * as m003 from './003_idempotency.js';
import * as m004 from './004_identity.js';
import * as m005 from './005_conversations.js';
import * as m006 from './006_feed.js';
import * as m010 from './010_webhooks.js';
import * as m011 from './011_signin_throttle.js';
import * as m012 from './012_companies.js';
import * as m013 from './013_idempotency_released.js';
import * as m014 from './014_row_level_security.js';
import * as m015 from './015_lock_then_read.js';
import * as m016 from './016_forgettable.js';
import * as m017 from './017_contact_companies.js';
import * as m018 from './018_exports.js';
import * as m019 from './019_erasure_marks.js';
import * as m020 from './020_contact_conversations.js';
import * as m021 from './021_teams.js';
import * as m022 from './022_saved_replies.js';
import * as m023 from './023_tags.js';
import * as m024 from './024_search_views.js';
import * as m025 from './025_outbound.js';
import * as m026 from './026_contacts_email_lower.js';
import * as m027 from './027_feed_reads_the_log.js';
import * as m028 from './028_answer_with_command.js';
import * as m029 from './029_idempotency_holder.js';
import * as m030 from './030_esdb_event_ids.js';
import * as m031 from './031_rate_limits.js';
import * as m032 from './032_audit_log.js';
import * as m033 from './033_security_review.js';
import * as m034 from './034_password_resets.js';
import * as m035 from './035_event_hash_chain.js';
import * as m036 from './036_audit_checkpoints.js';
import * as m037 from './037_email_channels.js';
import * as m038 from './038_email_messages.js';
import * as m039 from './039_priority_custom_attributes.js';
import * as m040 from './040_conversation_ratings.js';
import * as m041 from './041_business_hours_sla.js';
import * as m042 from './042_routing.js';
import * as m043 from './043_channel_addresses.js';
import * as m044 from './044_email_domains.js';
import * as m045 from './045_append_linked.js';
import * as m046 from './046_signed_posts.js';
import * as m047 from './047_views_of_removed_members.js';
import * as m048 from './048_reset_revokes_keys.js';
import * as m049 from './049_checkpoint_chain.js';
import * as m050 from './050_events_unhashed.js';
import * as m051 from './051_ratings_off_conversations.js';
import * as m052 from './052_contact_notes.js';
import * as m053 from './053_mentions.js';
import * as m054 from './054_uploads.js';
import * as m055 from './055_jobs.js';
import * as m056 from './056_conversation_merge.js';
import * as m057 from './057_contact_merge.js';
import * as m058 from './058_automation_rules.js';
import * as m059 from './059_statistics_created_partial.js';
import * as m060 from './060_tenant_wall_planned_as_average.js';
import * as m061 from './061_append_probes_by_key.js';
import * as m062 from './062_lock_then_read_chain_head.js';
import * as m063 from './063_append_retry_check_ordered.js';

// Migrations are listed here rather than discovered on disk, so they run the
// same from TypeScript sources (tsx) and from the compiled build.
const all: Record<string, { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> }> = {
  '001_event_store': m001,
  '002_platform': m002,
  '003_idempotency': m003,
  '004_identity': m004,
  '005_conversations': m005,
  '006_feed': m006,
  '010_webhooks': m010,
  '011_signin_throttle': m011,
  '012_companies': m012,
  '013_idempotency_released': m013,
  '014_row_level_security': m014,
  '015_lock_then_read': m015,
  '016_forgettable': m016,
  '017_contact_companies': m017,
  '018_exports': m018,
  '019_erasure_marks': m019,
  '020_contact_conversations': m020,
  '021_teams': m021,
  '022_saved_replies': m022,
  '023_tags': m023,
  '024_search_views': m024,
  '025_outbound': m025,
  '026_contacts_email_lower': m026,
  '027_feed_reads_the_log': m027,
  '028_answer_with_command': m028,
  '029_idempotency_holder': m029,
  '030_esdb_event_ids': m030,
  '031_rate_limits': m031,
  '032_audit_log': m032,
  '033_security_review': m033,
  '034_password_resets': m034,
  '035_event_hash_chain': m035,
  '036_audit_checkpoints': m036,
  '037_email_channels': m037,
  '038_email_messages': m038,
  '039_priority_custom_attributes': m039,
  '040_conversation_ratings': m040,
  '041_business_hours_sla': m041,
  '042_routing': m042,
  '043_channel_addresses': m043,
  '044_email_domains': m044,
  '045_append_linked': m045,
  '046_signed_posts': m046,
  '047_views_of_removed_members': m047,
  '048_reset_revokes_keys': m048,
  '049_checkpoint_chain': m049,
  '050_events_unhashed': m050,
  '051_ratings_off_conversations': m051,
  '052_contact_notes': m052,
  '053_mentions': m053,
  '054_uploads': m054,
  '055_jobs': m055,
  '056_conversation_merge': m056,
  '057_contact_merge': m057,
  '058_automation_rules': m058,
  '059_statistics_created_partial': m059,
  '060_tenant_wall_planned_as_average': m060,
  '061_append_probes_by_key': m061,
  '062_lock_then_read_chain_head': m062,
  '063_append_retry_check_ordered': m063,
};

export const migrations: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(all).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => all[name]!,
};
