/**
 * The API as a test calls it when it sends what the contract allows: openapi-fetch typed by the document's
 * generated types (shared/openapi/api-types.ts), as the console's client is (web/src/api.ts). A path, a request
 * body or a response field that drifts from the document fails `npm run typecheck`.
 *
 * Paths are built from the route table's prefixes, e.g. `` api.GET(`${paths.institutions}/{id}`, …) ``:
 * TypeScript gives such a template the literal type the document's path key has, so no test spells the prefix.
 *
 * Every request goes through the stack's gateway with what `call` (api.ts) adds: the token, the clock offset of
 * the request or of the running test (`moveClockForTest`), the check of the response against the document, and
 * the file's response observers. Tests that send what the types forbid (hostile input, faults,
 * malformed bodies) keep `call`, and so do refusals asserted on what was sent as is.
 */
import createClient, { type Client } from "openapi-fetch";
import { expect } from "vitest";
import type { paths as Document } from "../../shared/openapi/api-types.js";
import { received, requestHeaders, stack } from "./api.js";

export type ApiClient = Client<Document>;

export interface ClientOptions {
  /** Every request of this client runs with the domain's clock this many milliseconds ahead (`CallOptions`). */
  readonly clockOffsetMs?: number;
}

/** Statuses whose response has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The API as `token`'s holder (none: without a token). */
export function apiClient(token?: string, opts: ClientOptions = {}): ApiClient {
  return createClient<Document>({
    baseUrl: stack.apiUrl,
    fetch: async (request) => {
      // A request's own headers (an `x-local-clock-offset` of its own) win over the client's.
      for (const [name, value] of Object.entries(requestHeaders(token, opts.clockOffsetMs)))
        if (!request.headers.has(name)) request.headers.set(name, value);
      const res = await fetch(request);
      const result = await received(request.method, new URL(request.url), res, { token, clockOffsetMs: opts.clockOffsetMs });
      // The body is read (and checked) once; openapi-fetch parses this copy of it.
      return new Response(NO_BODY.has(result.status) ? null : result.text, { status: result.status, headers: res.headers });
    },
  });
}

/** What an openapi-fetch call resolves to, of any operation. */
interface Answer<D, E> {
  readonly data?: D;
  readonly error?: E;
  readonly response: Response;
}

/** The body of an answer with the status `status`, the call's success; any other status fails the test, showing the body. */
export function ok<D, E>(answer: Answer<D, E>, status = 200): D {
  expect(answer.response.status, JSON.stringify(answer.error ?? answer.data)?.slice(0, 500)).toBe(status);
  if (answer.data === undefined) throw new Error(`${status} without a body`);
  return answer.data;
}
