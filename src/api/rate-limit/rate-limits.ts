// The API's rate-limit policies, what each request draws from, and how the
// answer says so: the RateLimit-Policy and RateLimit fields of
// draft-ietf-httpapi-ratelimit-headers (the -10/-11 syntax: Structured Field
// Lists of a quoted policy name with q/w, and r/t). Every policy that applies to
// a request is listed in both fields, in the same order, so a client sees each
// budget it draws from (the draft allows naming only the one closest to
// exhaustion; listing all costs a few bytes and hides nothing).
import { AppError } from '../../platform/errors.js';
import type { Principal } from '../context.js';
import { RateLimiter, unitsOf, type Budget, type Limit, type Policy, type Verdict } from './limiter.js';

/**
 * Which budgets a route draws from. Authenticated routes: `read` (GET) and `write` (the rest) by default, `expensive`
 * when the route declares it (searches, exports); `channel`: the signed inbound route's own per-channel budget.
 */
export type RateClass = 'read' | 'write' | 'expensive' | 'channel';

export interface RateLimitSettings {
  windowSeconds: number;
  /** per API key, or per member for a session: every authenticated request */
  key: number;
  /** per workspace, over all its keys and members */
  workspace: number;
  /** per workspace, the expensive routes only (on top of key and workspace) */
  expensive: number;
  /** per channel, the signed inbound route */
  channel: number;
}

/** Told about every refused request (metrics). */
export interface RateLimitObserver {
  limited(workspaceId: string, rateClass: RateClass): void;
}

export class RateLimited extends AppError {
  constructor(verdict: Extract<Verdict, { allowed: false }>, fields: Record<string, string>, budgets: readonly Budget[] = []) {
    const which = verdict.exceeded
      .map((p) => {
        // A request costing several units is refused with fewer left (its RateLimit `r` above 0): say so.
        const cost = unitsOf(budgets.find((b) => b.policy === p) ?? { policy: p });
        const limit = `"${p.name}" (${p.quota} requests per ${p.windowSeconds} s) limit`;
        return cost > 1 ? `${limit} has less left than the ${cost} units this request costs` : `${limit} is used up`;
      })
      .join(' and ');
    super(429, 'rate_limited', `Too many requests: the ${which}. Retry after ${verdict.retryAfterSeconds} s.`, undefined, [], {
      ...fields,
      'Retry-After': String(verdict.retryAfterSeconds),
    });
  }
}

export class RateLimits {
  private readonly policies: Record<'key' | 'workspace' | 'expensive' | 'channel' | 'job', Policy>;
  /** each class's RateLimit-Policy value, the same on every answer */
  private readonly policyFields = new Map<RateClass, string>();

  constructor(
    private readonly limiter: RateLimiter,
    settings: RateLimitSettings,
    private readonly observer?: RateLimitObserver,
  ) {
    const policy = (name: string, quota: number): Policy => ({ name, quota, windowSeconds: settings.windowSeconds });
    this.policies = {
      key: policy('key', settings.key),
      workspace: policy('workspace', settings.workspace),
      expensive: policy('expensive', settings.expensive),
      channel: policy('channel', settings.channel),
      // Background jobs may take at most half of a workspace's budget: live agents always have the other half.
      job: policy('job', Math.max(1, Math.floor(settings.workspace / 2))),
    };
  }

  /**
   * An authenticated request: the caller's budget (the key, or the member of a session) and the workspace's, one
   * unit each; an expensive one also `cost` units (1 when not given) of the workspace's expensive budget.
   */
  async forCaller(principal: Principal, rateClass: RateClass, cost?: () => Promise<number>): Promise<Record<string, string>> {
    const budgets: Budget[] = [
      { policy: this.policies.key, subject: principal.callerId },
      { policy: this.policies.workspace, subject: principal.tenantId },
    ];
    if (rateClass === 'expensive') budgets.push({ policy: this.policies.expensive, subject: principal.tenantId, cost: cost ? await cost() : 1 });
    return this.draw(budgets, rateClass, principal.tenantId);
  }

  /**
   * One item of a background job (a bulk action): a unit of the workspace's budget, as the same request would
   * spend, and of the jobs' own, half as large, so that jobs never take more than half of what the workspace may
   * send and its teammates' requests are never starved by them.
   */
  forJob(tenantId: string): Promise<Record<string, string>> {
    return this.draw(
      [
        { policy: this.policies.job, subject: tenantId },
        { policy: this.policies.workspace, subject: tenantId },
      ],
      'write',
      tenantId,
    );
  }

  /** The signed inbound route, once the signature verified: the channel's own budget. */
  forChannel(tenantId: string, channelId: string): Promise<Record<string, string>> {
    return this.draw([{ policy: this.policies.channel, subject: channelId }], 'channel', tenantId);
  }

  /** The fields to send, or RateLimited (429) carrying them with Retry-After. */
  private async draw(budgets: Budget[], rateClass: RateClass, tenantId: string): Promise<Record<string, string>> {
    const verdict = await this.limiter.acquire(budgets);
    const fields = { 'RateLimit-Policy': this.policyField(rateClass, verdict.limits), RateLimit: limitField(verdict.limits) };
    if (verdict.allowed) return fields;
    this.observer?.limited(tenantId, rateClass);
    throw new RateLimited(verdict, fields, budgets);
  }

  private policyField(rateClass: RateClass, limits: Limit[]): string {
    let field = this.policyFields.get(rateClass);
    if (field === undefined) {
      field = limits.map((l) => `"${l.policy.name}";q=${l.policy.quota};w=${l.policy.windowSeconds}`).join(', ');
      this.policyFields.set(rateClass, field);
    }
    return field;
  }
}

const limitField = (limits: Limit[]): string => limits.map((l) => `"${l.policy.name}";r=${l.remaining};t=${l.resetSeconds}`).join(', ');

/** A route's class for a request: what it declares (or decides by the request), else by method. */
export const rateClassOf = <R>(def: { method: string; rateClass?: RateClass | ((req: R) => RateClass) }, req: R): RateClass =>
  (typeof def.rateClass === 'function' ? def.rateClass(req) : def.rateClass) ?? (def.method === 'get' ? 'read' : 'write');
