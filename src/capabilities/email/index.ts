// The e-mail channel (issue 32): channels of kind `email` receive mail over SMTP
// (the receiver runs when SMTP_PORT is set) or as raw MIME over HTTP, file it as
// conversations threaded by Message-ID and reply address, and send teammates'
// replies through the SMTP relay by way of the webhooks' delivery machinery
// (the transport below, handed to the delivery worker for `email:` targets).
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { emailEvents } from './email.events.js';
import { emailProjector } from './email.projection.js';
import { emailRoutes } from './email.routes.js';
import { smtpReceiver } from './smtp-receiver.js';

export { emailTransport } from './transport.js';
export { mailDns } from './auth.js';
export type { EmailEvent } from './email.events.js';
export type { SmtpReceiver } from './smtp-receiver.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  invalid_mime: { status: 400, when: 'A signed raw e-mail post whose body is empty or not a readable message.' },
  mime_too_complex: { status: 413, when: 'A signed raw e-mail post that could not be parsed within the time and memory budget, even as text only.' },
});

export const emailModule = defineModule({
  name: 'email',
  errors,
  tables: ['email_attachments'],
  events: emailEvents,
  projectors: [emailProjector],
  routes: emailRoutes,
  workers: (deps) =>
    deps.config.smtpPort === null
      ? []
      : [
          smtpReceiver(deps, {
            port: deps.config.smtpPort,
            host: deps.config.smtpHost,
            maxBytes: deps.config.smtpMaxBytes,
            maxClients: deps.config.smtpMaxClients,
            maxRecipients: deps.config.smtpMaxRecipients,
            maxMessagesPerConnection: deps.config.smtpMaxMessagesPerConnection,
            tls: deps.config.smtpTls,
          }),
        ],
});
