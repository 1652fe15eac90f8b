import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import type { Call, RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import { txtRecords } from '../../platform/dns.js';
import type { CoreDeps } from '../capability.js';
import { createEmailDomain, deleteEmailDomain, verifyEmailDomain } from './email-domains.commands.js';
import { domainNotVerified, domainTaken, txtRecord } from './email-domains.decider.js';
import {
  deletedEmailDomainSchema,
  emailDomainList,
  emailDomainSchema,
  emailDomainsOf,
  findEmailDomain,
  renderEmailDomain,
  type DeletedEmailDomain,
  type EmailDomainRow,
} from './email-domains.read.js';
import { domainHolder } from './domain-claims.js';

/** A host name of two labels or more (letters, digits, hyphens; no leading or trailing hyphen), an optional trailing dot. */
export const DOMAIN_PATTERN = '^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.){1,126}[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]\\.?$';

const NewEmailDomain = Type.Object(
  {
    domain: Type.String({
      minLength: 4,
      maxLength: 254,
      pattern: DOMAIN_PATTERN,
      description: 'The domain, e.g. `acme.example` (case and a trailing dot are ignored).',
    }),
  },
  { additionalProperties: false },
);

export const normalizeDomain = (d: string): string => d.trim().toLowerCase().replace(/\.$/, '');

export function emailDomainsRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  const owner = deps.ownerDb ?? db;
  const domainIn = async (tx: typeof db, call: Call, id: string) => renderEmailDomain((await findEmailDomain(tx, call.principal.tenantId, id))!);
  // The TXT records the verify route found, from its look-up (before the command, outside its transaction) to the command.
  const found = new WeakMap<Call, string[]>();

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/email_domains',
      permission: 'settings:write',
      summary: 'Add an e-mail domain to verify (publish its txt_record, then POST …/verify)',
      body: NewEmailDomain,
      responses: { 409: ERROR },
      before: async ({ body, principal }) => {
        const holder = await deps.scope.outside(() => domainHolder(owner, normalizeDomain(body.domain)));
        if (holder && holder !== principal.tenantId) throw domainTaken(normalizeDomain(body.domain));
      },
      command: ({ body, write }) =>
        createEmailDomain({ id: write.ids.uuid(), domain: normalizeDomain(body.domain), token: randomBytes(24).toString('base64url') }),
      answer: { status: 201, schema: emailDomainSchema, read: (tx, [created], call) => domainIn(tx, call, created!.aggregate_id) },
    }),

    listRoute<EmailDomainRow>({
      path: '/email_domains',
      permission: 'settings:read',
      summary: "List the workspace's e-mail domains",
      item: emailDomainSchema,
      spec: emailDomainList,
      query: ({ principal }) => emailDomainsOf(db, principal.tenantId),
      render: renderEmailDomain,
    }),

    getRoute({
      path: '/email_domains/:id',
      permission: 'settings:read',
      summary: 'Get an e-mail domain',
      resource: emailDomainSchema,
      what: 'e-mail domain',
      find: ({ principal, params }) => findEmailDomain(db, principal.tenantId, params.id),
      render: renderEmailDomain,
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/email_domains/:id/verify',
      permission: 'settings:write',
      summary: "Verify an e-mail domain: its TXT record must hold the workspace's token (409 domain_not_verified when it does not)",
      responses: { 404: ERROR, 409: ERROR },
      before: async (call) => {
        const row = await findEmailDomain(db, call.principal.tenantId, call.params.id);
        // Unknown (404) and verified already (200, nothing more): the command says so.
        if (!row || row.status === 'verified') return;
        const holder = await deps.scope.outside(() => domainHolder(owner, row.domain));
        if (holder && holder !== call.principal.tenantId) throw domainTaken(row.domain);
        const { name } = txtRecord(row.domain, row.token);
        try {
          found.set(call, await txtRecords(deps.dns, name));
        } catch (e) {
          throw domainNotVerified(row.domain, `the DNS did not answer for ${name} (${(e as { code?: string }).code ?? 'error'}); try again.`);
        }
      },
      command: (call) => verifyEmailDomain({ id: call.params.id, records: found.get(call) ?? [] }),
      answer: { status: 200, schema: emailDomainSchema, read: (tx, _events, call) => domainIn(tx, call, call.params.id) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/email_domains/:id',
      permission: 'settings:write',
      summary: 'Delete an e-mail domain (another workspace may then verify it; channels on it stay)',
      responses: { 404: ERROR },
      command: (call) => deleteEmailDomain({ id: call.params.id }),
      answer: {
        status: 200,
        schema: deletedEmailDomainSchema,
        read: async (_tx, [deleted]): Promise<DeletedEmailDomain> => ({ type: 'email_domain', id: deleted!.aggregate_id, deleted: true }),
      },
    }),
  ];
}
