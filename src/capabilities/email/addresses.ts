// The addresses of an e-mail channel: its support address, the reply address
// of each conversation, and our Message-IDs.
//
// A reply address is the support address with a `+<token>` tag: the same
// mailbox, so no extra MX or alias is needed (a forwarder passing on
// `support+anything@` reaches the receiver), and mail to it threads by the tag
// even when the client drops In-Reply-To. The token is the conversation id and
// an HMAC-SHA256 (truncated to 80 bits) over the workspace, the channel and the
// conversation, keyed by a key derived (HKDF) from the service's secrets key for
// this purpose alone; both in lowercase base32, so an MTA that folds the case
// of a local part changes nothing. Knowing a conversation id is not enough to
// write into it: a forged or altered tag names no conversation (the message is
// filed as if sent to the support address). The unsigned form of earlier
// versions (`+c.<conversation id>`) is not read: accepting it would keep the
// door open the MAC closes.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { secretsKey } from '../../platform/secrets-key.js';

/** The support address a recipient names, with any `+tag` taken off the local part. */
export function baseAddress(recipient: string): string {
  const at = recipient.lastIndexOf('@');
  if (at < 0) return recipient.toLowerCase();
  const local = recipient.slice(0, at);
  const plus = local.indexOf('+');
  return `${plus >= 0 ? local.slice(0, plus) : local}@${recipient.slice(at + 1)}`.toLowerCase();
}

const MAC_BYTES = 10;
const ID_BYTES = 16;
/** 26 bytes in base32: 42 characters (the local part stays within 64 for support local parts up to 21 characters). */
const TOKEN_CHARS = Math.ceil(((ID_BYTES + MAC_BYTES) * 8) / 5);
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lowercase, unpadded. */
function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of an unpadded base32 string, or null when a character is outside the alphabet or the trailing bits are not zero. */
function unbase32(s: string): Buffer | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of s) {
    const v = ALPHABET.indexOf(c);
    if (v < 0) return null;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  if ((value & ((1 << bits) - 1)) !== 0) return null;
  return Buffer.from(out);
}

export interface ReplyScope {
  tenantId: string;
  channelId: string;
}

/** What a tag names: a conversation (a reply address), or a sent reply (a bounce address, the reply's return path). */
type Purpose = 'reply-address/v1' | 'bounce-address/v1';

const mac = (key: Buffer, scope: ReplyScope, id: Buffer, purpose: Purpose = 'reply-address/v1'): Buffer =>
  createHmac('sha256', key).update(`${purpose}|${scope.tenantId}|${scope.channelId}|`).update(id).digest().subarray(0, MAC_BYTES);

const uuidBytes = (id: string): Buffer => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (b: Buffer): string => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** The tag of a conversation's reply address: its id and the MAC binding it to the workspace and channel. */
export function replyToken(key: Buffer, scope: ReplyScope & { conversationId: string }): string {
  const id = uuidBytes(scope.conversationId);
  return base32(Buffer.concat([id, mac(key, scope, id)]));
}

export function replyAddress(channelAddress: string, token: string): string {
  const at = channelAddress.lastIndexOf('@');
  return `${channelAddress.slice(0, at)}+${token}${channelAddress.slice(at)}`;
}

/** The conversation a reply address names, when its tag verifies for this channel; null otherwise (no tag, another form, a forgery). */
export function conversationOfReplyAddress(key: Buffer, scope: ReplyScope, recipient: string): string | null {
  return idOfTag(key, scope, recipient, 'reply-address/v1');
}

/**
 * The tag of a reply's bounce address (VERP): its part id and a MAC binding it to the workspace and channel, for a
 * purpose of its own, so a bounce address never names a conversation and a reply address never names a part. The
 * reply goes out with the support address tagged with it as its return path (MAIL FROM), where a DSN is sent.
 */
export function bounceToken(key: Buffer, scope: ReplyScope & { partId: string }): string {
  const id = uuidBytes(scope.partId);
  return base32(Buffer.concat([id, mac(key, scope, id, 'bounce-address/v1')]));
}

/** The sent reply a bounce address names, when its tag verifies for this channel; null otherwise. */
export function partOfBounceAddress(key: Buffer, scope: ReplyScope, recipient: string): string | null {
  return idOfTag(key, scope, recipient, 'bounce-address/v1');
}

function idOfTag(key: Buffer, scope: ReplyScope, recipient: string, purpose: Purpose): string | null {
  const at = recipient.lastIndexOf('@');
  const local = recipient.slice(0, Math.max(at, 0));
  const plus = local.indexOf('+');
  if (plus < 0) return null;
  const tag = local.slice(plus + 1).toLowerCase();
  if (tag.length !== TOKEN_CHARS) return null;
  const bytes = unbase32(tag);
  if (!bytes || bytes.length !== ID_BYTES + MAC_BYTES) return null;
  const id = bytes.subarray(0, ID_BYTES);
  return timingSafeEqual(bytes.subarray(ID_BYTES), mac(key, scope, id, purpose)) ? uuidOf(id) : null;
}

const keys = new Map<string, Promise<Buffer>>();

/**
 * The key of reply addresses: derived (HKDF-SHA256, its own info string) from the service's secrets key
 * (SERVICE_SECRETS_KEY, or the one generated in DATA_DIR), so every process sharing the database and that key
 * makes and reads the same addresses, and no other use of the secrets key can produce these MACs.
 */
export function replyAddressKey(config: { secretsKey: string | null; dataDir: string }): Promise<Buffer> {
  const id = `${config.secretsKey ?? ''}\0${config.dataDir}`;
  let key = keys.get(id);
  if (!key) {
    key = secretsKey(config.secretsKey, config.dataDir).then((s) =>
      Buffer.from(hkdfSync('sha256', Buffer.from(s, 'utf8'), Buffer.alloc(0), 'conversation-service/email-reply-address/v1', 32)),
    );
    // A failure to read the key is not remembered: the next message reads it again.
    key.catch(() => keys.delete(id));
    keys.set(id, key);
  }
  return key;
}

export const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1);

/** The Message-ID of a teammate's reply: the part's id, in the channel's domain. */
export const replyMessageId = (partId: string, channelAddress: string): string => `<p.${partId}@${domainOf(channelAddress)}>`;
