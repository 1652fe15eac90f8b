// Given / when / then for pure deciders, exactly: like decider-spec.ts, but the
// decided events are compared whole (type, aggregate and every payload field,
// nothing more), and a refusal is named by its code and its HTTP status (and
// the field, when it names one).
import { expect } from 'chai';
import { AppError } from '../../src/platform/errors.js';

export interface Refusal {
  code: string;
  status: number;
  field?: string;
}

export function exactDecider<C, S, E extends { type: string; aggregate_type: string; aggregate_id: string; payload: object }>(
  decide: (cmd: C, state: S) => E[],
) {
  return {
    given: (state: S) => ({
      when: (cmd: C) => {
        const run = () => decide(cmd, state);
        return {
          /** exactly these events, in order */
          then(...expected: E[]): void {
            expect(run()).to.deep.equal(expected);
          },
          thenNothing(): void {
            expect(run()).to.deep.equal([]);
          },
          /** refused with a coded error of this status (and field); returns it for a closer look */
          thenRefuses(refusal: Refusal): AppError {
            let err: unknown;
            try {
              run();
            } catch (e) {
              err = e;
            }
            expect(err, 'a refusal').to.be.instanceOf(AppError);
            const e = err as AppError;
            expect({ code: e.code, status: e.status, ...(refusal.field !== undefined ? { field: e.field } : {}) }).to.deep.equal(refusal);
            return e;
          },
        };
      },
    }),
  };
}
