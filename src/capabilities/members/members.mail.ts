// The invite mail: with a relay (SMTP_RELAY_URL) the token goes to the invitee's
// mailbox and nowhere else, so the inviter never holds what creates the account
// and sets its password (issue 35: account squatting through invites).
import { AppError, Unprocessable } from '../../platform/errors.js';
import { MailRefused } from '../../platform/mail/relay.js';
import type { Role } from '../../api/scopes.js';
import type { CoreDeps } from '../capability.js';
import { findWorkspace } from '../workspaces/index.js';
import { INVITE_TTL_MS } from './members.commands.js';
import { findMember } from './members.read.js';

/** The longest name (in code points) an invite mail quotes; a longer one is cut, with an ellipsis. */
export const MAX_QUOTED_NAME = 60;

/**
 * A free-text name (a member's, a workspace's) as the service's own mail quotes it: one line (line breaks, tabs and
 * every other control or format character become spaces, runs of spaces one), at most MAX_QUOTED_NAME code points,
 * inside double quotes (its own double quotes made single), so it reads as a name and never as the mail's wording.
 */
export function quotedName(name: string): string {
  const line = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/"/g, "'");
  const points = [...line];
  return `"${
    points.length > MAX_QUOTED_NAME
      ? `${points
          .slice(0, MAX_QUOTED_NAME - 1)
          .join('')
          .trimEnd()}…`
      : line
  }"`;
}

export async function mailInvite(
  deps: Pick<CoreDeps, 'db' | 'mail' | 'config'>,
  invite: { to: string; token: string; role: Role; tenantId: string; inviterId: string },
): Promise<void> {
  const mail = deps.mail!;
  const workspace = await findWorkspace(deps.db, invite.tenantId);
  const inviter = await findMember(deps.db, invite.tenantId, invite.inviterId);
  const link = `${deps.config.publicUrl}/accept-invite#token=${encodeURIComponent(invite.token)}`;
  const days = Math.round(INVITE_TTL_MS / 86_400_000);
  const role = invite.role === 'admin' || invite.role === 'agent' ? `an ${invite.role}` : `a ${invite.role}`;
  // The wording is the service's; the names people chose (the inviter's, the workspace's) are quoted inside it, one
  // line each and capped (security review 2026-11-28, finding 12: a name is no place for instructions).
  const workspaceName = workspace ? quotedName(workspace.name) : 'a workspace';
  try {
    await mail.send({
      to: invite.to,
      subject: `Invitation to the workspace ${workspaceName}`,
      // An automatic message: a vacation responder must not answer it.
      headers: { 'Auto-Submitted': 'auto-generated' },
      text: [
        `You are invited to join the workspace ${workspaceName} as ${role}.`,
        inviter?.name
          ? `The invitation was sent by a member of that workspace, whose name there is ${quotedName(inviter.name)}.`
          : 'The invitation was sent by a member of that workspace.',
        '',
        `Accept within ${days} days: ${link}`,
        '',
        "If you have an account, accept with its password; if not, the password you choose there becomes your account's.",
        `Or with the API: POST /api/invites/accept {"token": "${invite.token}", "name": "<your name>", "password": "<your password>"}`,
        '',
        'If you did not expect this invite, ignore this message.',
      ].join('\n'),
    });
  } catch (e) {
    if (!(e instanceof MailRefused)) throw e;
    if (e.permanent)
      throw new Unprocessable('mail_refused', `The mail relay refused to deliver the invite to this address (${e.message}); nothing was invited.`, 'email');
    throw new AppError(503, 'mail_relay_unavailable', 'The mail relay did not take the invite; nothing was invited. Retry later.', undefined, [], {
      'Retry-After': '30',
    });
  }
}
