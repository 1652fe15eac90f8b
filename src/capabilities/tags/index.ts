// Tags: the workspace's catalog of labels, and the SQL that shows a
// conversation's or contact's tags by name. Tagging itself belongs to
// conversations and contacts (their own delta events, their own tag_ids
// column); they import tagExists and tagRefsSql from here, so tags never
// imports them back: a deletion gets their lookups handed in.
import { defineModule } from '../capability.js';
import { tagEvents } from './tags.events.js';
import { tagsProjector } from './tags.projection.js';
import type { TagReferences } from './tags.read.js';
import { tagsRoutes } from './tags.routes.js';
import { defineErrors } from '../../platform/errors.js';

export { findTag, renderTag, tagRefSchema, tagRefsSql, tagSchema, tagView, type TagRef, type TagReferences, type TagRow } from './tags.read.js';
export { taggingChanges, type TagView } from './tags.decider.js';
export type { TagEvent } from './tags.events.js';

/** The module, given how to find what a deletion untags (see TagReferences). */
/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  tag_exists: { status: 409, when: 'A tag with this name (ignoring case) already exists in the workspace.' },
  limit_reached: { status: 422, when: 'Creating more tags than a workspace may keep.' },
});

export const tagsModule = (refs: TagReferences) =>
  defineModule({ name: 'tags', errors, events: tagEvents, projectors: [tagsProjector], routes: (deps) => tagsRoutes(deps, refs) });
