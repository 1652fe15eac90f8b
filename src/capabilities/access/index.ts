// Access: signing in and out (sessions, device cookies), who the caller is (/api/me), and the
// Authenticator the composition root puts in front of every /api route.
import { defineModule } from '../capability.js';
import { accessRoutes } from './access.routes.js';
import { defineErrors } from '../../platform/errors.js';

export { Authenticator } from './authenticator.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  invalid_api_key: { status: 401, when: 'A missing, malformed, unknown or revoked API key: one identical answer for all.' },
  session_expired: { status: 401, when: 'An unknown or expired session cookie.' },
  invalid_credentials: { status: 401, when: 'Signing in with a wrong e-mail or password (one answer for both).' },
  session_required: { status: 403, when: 'Minting or rotating an API key with a key: only a signed-in member may.' },
  session_too_old: { status: 403, when: 'Minting or rotating an API key with a session older than 15 minutes: sign in again.' },
  workspace_header_required: { status: 403, when: 'A cookie-authenticated write without `X-Service-Workspace`.' },
  workspace_required: { status: 400, when: 'A session request that names no workspace.' },
  workspace_not_found: { status: 404, when: 'A session request naming a workspace the user is not a member of.' },
  owner_required: { status: 403, when: "Revoking another member's devices (`DELETE /api/members/{id}/devices`) without being an owner." },
});

export const accessModule = defineModule({ name: 'access', errors, tables: ['sessions'], events: [], routes: accessRoutes });
