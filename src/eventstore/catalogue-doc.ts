// docs/events.md, generated from the catalogue (`npm run docs:events`); a test
// regenerates it and fails on any difference, so the docs cannot drift.
import type { EventCatalogue } from './catalogue.js';

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  format?: string;
  minimum?: number;
}

function typeOf(s: JsonSchema): string {
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.anyOf) return s.anyOf.map(typeOf).join(' \\| ');
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items) : 'any'}`;
  if (s.type === 'object') return 'object';
  const base = Array.isArray(s.type) ? s.type.join(' \\| ') : (s.type ?? 'any');
  return s.format ? `${base} (${s.format})` : base;
}

function rows(schema: JsonSchema, prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name) ? 'yes' : 'no';
    out.push(`| \`${prefix}${name}\` | ${typeOf(prop)} | ${required} |`);
    if (prop.type === 'object') out.push(...rows(prop, `${prefix}${name}.`));
    if (prop.type === 'array' && prop.items?.type === 'object') out.push(...rows(prop.items, `${prefix}${name}[].`));
  }
  return out;
}

export function renderEventsMarkdown(catalogue: EventCatalogue): string {
  const lines = [
    '# Events',
    '',
    '<!-- Generated from the event catalogue by `npm run docs:events`; do not edit by hand. -->',
    '',
    'Every change is one of these events. Each reaches the change feed (`GET /api/events`) and webhook endpoints as the',
    'envelope `{tenant_id, seq, type, aggregate_type, aggregate_id, payload, created_at}` (see docs/webhooks.md),',
    "except the events of a member's private view, which stay in the log and reach neither: a private view's name and",
    "query are its member's alone, and the feed and deliveries are read by others (docs/api-guide.md: Views and counts).",
    "A webhook endpoint's `event_names` and the feed's `types` filter accept exactly these types.",
    'Payloads are closed: a field not listed here never appears. "required: no" fields appear only when they apply.',
    "Fields marked *personal* are personal data: sealed in the log with their subject's data key, delivered and listed",
    'opened, and `null` everywhere once the subject is erased or the part redacted (docs/api-guide.md: Personal data).',
    '',
    '**What an auditor sees besides the envelope.** The log keeps metadata with every event, never in the envelope the',
    'feed and webhooks carry: `actor` (`{type: member|api_key|channel|system, id, member_id}`: who acted; an API key acts',
    'as its member), `request_id` (the request that wrote it), `idempotency_key` (when the request sent one) and',
    "`client` (the caller's address and user agent, sealed like personal fields under the member's data key, or the",
    "contact's for a channel's post, so erasing them nulls it). The audit log (`GET /api/audit_log`) shows them opened;",
    "a resource's history (`GET /api/conversations/{id}/history`, `GET /api/contacts/{id}/history`) its events' `actor`",
    "and `request_id`; the audit export (`GET /api/audit/export`) all of it as stored, with each event's `hash`, its",
    "link in the workspace's hash chain, which covers the metadata too (docs/audit.md).",
    '',
    '| type | aggregate_type | when |',
    '|---|---|---|',
    // GitHub's heading anchors: lower case, punctuation dropped but '_' and '-' kept (api_key.created → #api_keycreated).
    ...catalogue.all().map((d) => `| [\`${d.type}\`](#${d.type.replace(/\./g, '')}) | \`${d.aggregate_type}\` | ${d.description} |`),
    '',
  ];
  for (const d of catalogue.all()) {
    const personal = d.personal
      ? [
          `Personal fields (*personal*, sealed with the data key of the ${d.personal.kind} named by \`${d.personal.id}\`): ${d.personal.fields.map((f) => `\`${f}\``).join(', ')}.`,
          '',
        ]
      : [];
    const postedFor = d.postedFor
      ? [
          `Posted by a channel, its caller's address and user agent (metadata \`client\`) are sealed with the data key of the contact named by \`${d.postedFor.contact}\`.`,
          '',
        ]
      : [];
    lines.push(
      `## ${d.type}`,
      '',
      d.description,
      '',
      `Aggregate type: \`${d.aggregate_type}\`.`,
      '',
      ...personal,
      ...postedFor,
      '| payload field | type | required |',
      '|---|---|---|',
      ...rows(d.payload as JsonSchema),
      '',
    );
  }
  return lines.join('\n');
}
