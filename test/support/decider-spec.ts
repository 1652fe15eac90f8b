// Given / when / then for pure deciders: given the state a command loaded,
// when the command is decided, then these events, or a refusal with this code.
import { expect } from 'chai';
import { AppError } from '../../src/platform/errors.js';

type Expected<E> = E extends { type: infer T; payload: infer P } ? { type: T; aggregate_id?: string; payload?: Partial<P> } : never;

export function decider<C, S, E extends { type: string; aggregate_id: string; payload: object }>(decide: (cmd: C, state: S) => E[]) {
  return {
    given: (state: S) => ({
      when: (cmd: C) => {
        const run = () => decide(cmd, state);
        return {
          /** the decided events, in order; payloads compared by the fields named */
          then(...expected: Expected<E>[]): E[] {
            const events = run();
            expect(
              events.map((e) => e.type),
              'event types',
            ).to.deep.equal(expected.map((x) => x.type));
            expected.forEach((x, i) => {
              if (x.aggregate_id !== undefined) expect(events[i]!.aggregate_id, `event ${i} aggregate_id`).to.equal(x.aggregate_id);
              if (x.payload) expect(events[i]!.payload, `event ${i} payload`).to.deep.include(x.payload);
            });
            return events;
          },
          thenNothing(): void {
            expect(run()).to.deep.equal([]);
          },
          /** refused with a coded error (and the field it names, when given) */
          thenRefuses(code: string, field?: string): void {
            let err: unknown;
            try {
              run();
            } catch (e) {
              err = e;
            }
            expect(err, 'a refusal').to.be.instanceOf(AppError);
            expect((err as AppError).code).to.equal(code);
            if (field !== undefined) expect((err as AppError).field).to.equal(field);
          },
        };
      },
    }),
  };
}

/** The code of the coded refusal `fn` throws ('no error' when it decides instead). */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
  return 'no error';
}
