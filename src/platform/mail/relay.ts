// The outbound SMTP relay (SMTP_RELAY_URL): how mail leaves the service. Invites
// and password resets send through it, and so does the e-mail channel's
// replies. One message per call, over a fresh connection: what the service
// sends is rare (invites, resets) or already queued and retried by its own
// machinery (channel replies), so a pool's idle connections would buy nothing.
//
// A refusal keeps the relay's SMTP code: 4xx is temporary (try again later),
// 5xx permanent (this message will never go), and no code means the relay was
// not reached (a transport failure, also worth another try).
import { createTransport } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** the sender; the relay's default (MAIL_FROM) when absent */
  from?: string;
  html?: string;
  replyTo?: string;
  /** the Message-ID to give the message (`<id@domain>`); the relay client makes one when absent */
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  /** signs the message (DKIM) with this domain, selector and RSA private key (PEM) */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /** the envelope sender (MAIL FROM), where bounces go, and the envelope recipient; the From and To when absent */
  envelope?: { from: string; to: string };
  /** files sent as MIME parts (Content-Disposition: attachment) */
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

export interface MailSent {
  messageId: string;
  /** the relay's last answer, e.g. "250 2.0.0 OK queued" */
  response: string;
}

/** The relay did not take the message. */
export class MailRefused extends Error {
  constructor(
    message: string,
    /** the relay's SMTP reply code, null when it was not reached or answered nothing usable */
    readonly code: number | null,
    /** true for a 5xx: sending the same message again will not help */
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailRefused';
  }
}

export interface MailRelay {
  /** the sender used when a message names none */
  readonly from: string;
  send(message: MailMessage): Promise<MailSent>;
}

export interface RelayOptions {
  /** MAIL_FROM */
  from: string;
  /** to connect, and for each reply of the relay */
  timeoutMs?: number;
}

/**
 * A relay client for `smtp://user:pass@host:port` (STARTTLS when the relay
 * offers it) or `smtps://…` (TLS from the first byte). Credentials in the URL
 * are percent-decoded by nodemailer.
 */
export function smtpRelay(url: string, opts: RelayOptions): MailRelay {
  const timeout = opts.timeoutMs ?? 30_000;
  // The URL's settings (host, port, TLS, credentials) win; the timeouts apply where it sets none.
  const transport = createTransport({ url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }, { from: opts.from });
  return {
    from: opts.from,
    async send(m) {
      try {
        const info = await transport.sendMail({
          from: m.from ?? opts.from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          ...(m.html !== undefined ? { html: m.html } : {}),
          ...(m.replyTo !== undefined ? { replyTo: m.replyTo } : {}),
          ...(m.messageId !== undefined ? { messageId: m.messageId } : {}),
          ...(m.inReplyTo !== undefined ? { inReplyTo: m.inReplyTo } : {}),
          ...(m.references !== undefined ? { references: m.references } : {}),
          ...(m.headers !== undefined ? { headers: m.headers } : {}),
          ...(m.dkim !== undefined ? { dkim: m.dkim } : {}),
          ...(m.envelope !== undefined ? { envelope: m.envelope } : {}),
          ...(m.attachments?.length ? { attachments: m.attachments.map((a) => ({ ...a, contentDisposition: 'attachment' as const })) } : {}),
        });
        return { messageId: String(info.messageId), response: String((info as { response?: unknown }).response ?? '') };
      } catch (e) {
        const err = e as { responseCode?: number; response?: string; code?: string; message?: string };
        const code = typeof err.responseCode === 'number' ? err.responseCode : null;
        // What the relay said, or why it could not be reached; never the message itself.
        const why = err.response ?? `${err.code ?? 'ERROR'}: ${err.message ?? 'could not reach the relay'}`;
        throw new MailRefused(why, code, code !== null && code >= 500);
      }
    },
  };
}
