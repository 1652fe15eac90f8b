// Which of the EventStoreDB client's errors the adapter reports as
// EventStoreUnavailable (answered 503 with Retry-After, never 500): those that
// say the cluster could not take a call just now, found on a three-node 24.6
// cluster losing its leader (docs/eventstoredb.md, "Losing the leader").
import { expect } from 'chai';
import { DeadlineExceededError, UnavailableError, UnknownError, WrongExpectedVersionError } from '@eventstore/db-client';
import { EventStoreTimeout, EventStoreUnavailable, isClusterUnavailable } from '../../src/eventstore/eventstoredb.store.js';
import { isDatabaseUnavailable } from '../../src/platform/db/unavailable.js';

describe('EventStoreDB cluster unavailable (unit)', () => {
  it('knows the node gone, the deadline, and the election statuses the client cannot name', () => {
    expect(isClusterUnavailable(new UnavailableError(undefined, '14 UNAVAILABLE: Connection dropped'))).to.equal(true);
    expect(isClusterUnavailable(new DeadlineExceededError())).to.equal(true);
    // the batch-append path: the server's NotHandled(NotReady / TooBusy) reaches the client as an unknown status
    expect(isClusterUnavailable(new UnknownError(undefined, 'Could not recognize Server Is Not Ready'))).to.equal(true);
    expect(isClusterUnavailable(new UnknownError(undefined, 'Could not recognize Server Is Busy'))).to.equal(true);
  });

  it('leaves everything else alone: a conflict, an unknown error of another kind, a plain error', () => {
    expect(isClusterUnavailable(new WrongExpectedVersionError(undefined, { streamName: 'tenant-x', expected: 3n, current: 5n }))).to.equal(false);
    expect(isClusterUnavailable(new UnknownError(undefined, 'Could not recognize Something Else'))).to.equal(false);
    expect(isClusterUnavailable(new Error('Server Is Not Ready'))).to.equal(false);
  });

  it('is a 503 for the error handler, wrapped or not, and so is a deadline the adapter enforced', () => {
    const e = new EventStoreUnavailable('EventStoreDB cannot take the call just now', { cause: new UnavailableError() });
    expect(isDatabaseUnavailable(e)).to.equal(true);
    expect(isDatabaseUnavailable(new EventStoreTimeout('reading $all', 10_000))).to.equal(true);
    // the read-back after a committed append wraps what failed it
    expect(isDatabaseUnavailable(new Error('the append committed seq 4..5, but reading it back failed', { cause: e }))).to.equal(true);
    // the client's own errors are all named "Error": the service knows them only through the adapter
    expect(new UnavailableError().name).to.equal('Error');
  });
});
