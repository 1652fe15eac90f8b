// The addresses of an e-mail channel: its support address, the reply address
// of each conversation (the support address with a `+c.<conversation id>` tag:
// the same mailbox, so no extra MX or alias is needed, and mail to it threads
// by the tag even when the client drops In-Reply-To), and our Message-IDs.

/** The support address a recipient names, with any `+tag` taken off the local part. */
export function baseAddress(recipient: string): string {
  const at = recipient.lastIndexOf('@');
  if (at < 0) return recipient.toLowerCase();
  const local = recipient.slice(0, at);
  const plus = local.indexOf('+');
  return `${plus >= 0 ? local.slice(0, plus) : local}@${recipient.slice(at + 1)}`.toLowerCase();
}

export function replyAddress(channelAddress: string, conversationId: string): string {
  const at = channelAddress.lastIndexOf('@');
  return `${channelAddress.slice(0, at)}+c.${conversationId.replace(/-/g, '')}${channelAddress.slice(at)}`;
}

/** The conversation id a reply address carries, or null. */
export function conversationOfReplyAddress(recipient: string): string | null {
  const m = /\+c\.([0-9a-f]{32})@/i.exec(recipient);
  if (!m) return null;
  const h = m[1]!.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1);

/** The Message-ID of a teammate's reply: the part's id, in the channel's domain. */
export const replyMessageId = (partId: string, channelAddress: string): string => `<p.${partId}@${domainOf(channelAddress)}>`;
