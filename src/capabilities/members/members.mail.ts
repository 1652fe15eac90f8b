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

export async function mailInvite(
  deps: Pick<CoreDeps, 'db' | 'mail' | 'config'>,
  invite: { to: string; token: string; role: Role; tenantId: string; inviterId: string },
): Promise<void> {
  const mail = deps.mail!;
  const workspace = await findWorkspace(deps.db, invite.tenantId);
  const inviter = await findMember(deps.db, invite.tenantId, invite.inviterId);
  const link = `${deps.config.publicUrl}/accept-invite#token=${encodeURIComponent(invite.token)}`;
  const days = Math.round(INVITE_TTL_MS / 86_400_000);
  try {
    await mail.send({
      to: invite.to,
      subject: `You are invited to ${workspace?.name ?? 'a workspace'}`,
      // An automatic message: a vacation responder must not answer it.
      headers: { 'Auto-Submitted': 'auto-generated' },
      text: [
        `${inviter?.name ?? 'A member'} invited you to join ${workspace?.name ?? 'their workspace'} as ${invite.role === 'admin' || invite.role === 'agent' ? `an ${invite.role}` : `a ${invite.role}`}.`,
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
