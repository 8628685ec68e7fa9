/**
 * CPU work a request needs after a round trip but that does not depend on its answer (an invitation token
 * and its hash, ids, the audit event, the mail text) can run while that round trip is in flight: the
 * request then waits for the longer of the two instead of their sum (`npm run bench`, section 2).
 */

/**
 * Runs `work` once the requests started before this call have gone out, and resolves with its result.
 * The SDK writes a request within the microtask and `nextTick` queues of its `send()`; `setImmediate`
 * runs after those have drained and after the event loop's I/O poll, so `work` overlaps the round trip
 * instead of delaying the request. Pass the promise to `Promise.all` with the requests it overlaps.
 */
export async function whileInFlight<T>(work: () => T): Promise<T> {
  await new Promise((resolve) => setImmediate(resolve));
  return work();
}
