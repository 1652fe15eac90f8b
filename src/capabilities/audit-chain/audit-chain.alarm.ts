// Saying that a workspace's log no longer extends what the service signed: an
// error line and a metric, once per workspace until a check holds again. Every
// request for a checkpoint repeats the check (and the 409), so logging each
// would bury the one line an operator must read; and the alarm stays up until
// the log is restored, so a quiet moment does not look like a fix.
import type { Logger } from '../../platform/logger.js';
import type { AuditChainObserver } from '../capability.js';

export type ChainAlarm = AuditChainObserver;

/** One per process, shared by the routes and the worker (the composition root builds it; the CLI gets one of its own). */
export function chainAlarm(log: Logger, metric?: AuditChainObserver): ChainAlarm {
  const broken = new Set<string>();
  return {
    broken(tenantId, seq, reason) {
      if (broken.has(tenantId)) return;
      broken.add(tenantId);
      log.error(
        { tenant_id: tenantId, seq, reason },
        `audit chain broken: workspace ${tenantId}: first failing seq ${seq}: ${reason}. No checkpoint is signed for it until its log extends the last one signed (docs/audit.md).`,
      );
      metric?.broken(tenantId, seq, reason);
    },
    held(tenantId) {
      if (!broken.delete(tenantId)) return;
      log.info({ tenant_id: tenantId }, `audit chain holds again: workspace ${tenantId}'s log extends its last checkpoint`);
      metric?.held(tenantId);
    },
  };
}
