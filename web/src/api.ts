/**
 * The API on the same origin (`apiPaths`), with the ID token as Bearer. An expired token is refreshed once
 * with the refresh token; when that fails too the session ends and the sign-in page says why.
 */
import createClient from "openapi-fetch";
import type { components, operations, paths } from "../../shared/openapi/api-types";
import { paths as routePaths } from "../../shared/paths";
import { clearSession, getSession } from "./auth/session";

export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when the API could not be reached. */
    readonly status: number,
    message: string,
    /** The contract's 422 `{errors: [...]}`, one message per field. */
    readonly errors: readonly string[] = [],
    /** From `Retry-After` (429): when the request may be made again. */
    readonly retryAt?: Date,
    /** The whole JSON body, for answers that carry more than a message (409 already accepted names the institution). */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export const SESSION_EXPIRED = "Your session has expired. Sign in again.";

let refreshing: Promise<boolean> | undefined;

/** One refresh for every request that met the 401 together. */
function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    if (!getSession()) return false;
    try {
      // Amplify holds the refresh token (auth/cognito.ts); it waits for the configuration itself, which a
      // prefetch (main.tsx) may meet its 401 before.
      const { refresh } = await import("./auth/cognito");
      await refresh();
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

function retryAt(res: Response): Date | undefined {
  const raw = res.headers.get("retry-after");
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return new Date(Date.now() + seconds * 1000);
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

async function toError(res: Response): Promise<ApiError> {
  let body: { error?: unknown; errors?: unknown; message?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON: the status says enough
  }
  const errors = Array.isArray(body.errors) ? body.errors.filter((e): e is string => typeof e === "string") : [];
  const message =
    typeof body.error === "string"
      ? body.error
      : errors.length > 0
        ? errors.join(" ")
        : typeof body.message === "string"
          ? body.message
          : `The API answered ${res.status} ${res.statusText}`.trim();
  return new ApiError(res.status, message, errors, retryAt(res), body);
}

/** Sends one request with the session's token; a 401 refreshes the session once and sends it again. */
async function send(input: Request): Promise<Response> {
  const attempt = (req: Request) => {
    const token = getSession()?.idToken;
    if (token) req.headers.set("authorization", `Bearer ${token}`);
    if (!req.headers.has("accept")) req.headers.set("accept", "application/json, text/csv");
    return fetch(req);
  };
  let res: Response;
  try {
    // The body can be read once: a copy for the second attempt.
    const again = input.clone();
    res = await attempt(input);
    if (res.status === 401) {
      if (await refreshSession()) res = await attempt(again);
      if (res.status === 401) {
        clearSession(SESSION_EXPIRED);
        throw new ApiError(401, SESSION_EXPIRED);
      }
    }
  } catch (err) {
    if (err instanceof ApiError || (err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "The API cannot be reached. Check your connection and try again.");
  }
  if (!res.ok) throw await toError(res);
  return res;
}

/** The defined values; an empty filter ("") is left out as an absent one. */
function querySerializer(values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  return q.toString();
}

/**
 * The API, typed by the document (shared/openapi/api-types.ts): a path, a request body or a response that
 * drifts from it fails `npm run typecheck`. A failed request rejects with ApiError.
 */
export const client = createClient<paths>({ fetch: send, querySerializer });

/**
 * A read's body with its `ETag`: the version a later write sends back as `If-Match`, so that it changes only
 * what was read (a 412 otherwise, docs/contract/README.md#retries-and-concurrent-edits).
 */
export function withETag<D>(result: { data?: D; response: Response }): D & { etag: string | undefined } {
  return { ...ok(result), etag: result.response.headers.get("etag") ?? undefined };
}

/** The API's 412: someone changed the institution since it was read (`If-Match`); nothing was changed. */
export const isChangedElsewhere = (err: unknown): boolean => err instanceof ApiError && err.status === 412;

/** A call's body: a failure has already rejected with ApiError, so the body is there. */
export function ok<D>(result: { data?: D; response: Response }): D {
  if (result.data === undefined) throw new ApiError(result.response.status, `The API answered ${result.response.status} without a body`);
  return result.data;
}

/** The API's path prefixes (shared/paths.ts): the one place the API's paths are spelled. */
export const apiPaths = routePaths;

type Prefetchable = typeof routePaths.institutions;
const prefetched = new Map<string, Promise<unknown>>();

/** Starts a GET before the page that needs it has loaded its code (main.tsx, for the first page). */
export function prefetch(path: Prefetchable): void {
  const p = client.GET(path).then(ok);
  p.catch(() => {}); // the page that takes it handles the failure
  prefetched.set(path, p);
}

/** The prefetched answer for `key` (the path it was fetched with), once: later loads (a reload) ask again. */
export function takePrefetched(key: string): Promise<unknown> | undefined {
  const p = prefetched.get(key);
  prefetched.delete(key);
  return p;
}

// --- the contract's shapes -----------------------------------------------------------------------------

/** Response shapes come from the API document (shared/openapi/api-types.ts, generated and checked in npm test). */
type Schemas = components["schemas"];

export type Role = Schemas["Role"];

export type InstitutionSummary = Schemas["InstitutionListItem"];
export type Institution = Schemas["Institution"];
export type InstitutionView = Schemas["InstitutionShown"];
/** What an update sends: only the fields that change. */
export type InstitutionChanges = operations["updateInstitution"]["requestBody"]["content"]["application/json"]["institution"];
export type Cohort = Schemas["Cohort"];
export type Invitation = Schemas["InvitationListItem"];
export type InvitationStatus = Invitation["status"];
export type PageMeta = Schemas["PageMeta"];
export type SecurityEvent = Schemas["ListedEvent"];
export type SecurityEventDetail = Schemas["SecurityEvent"];

export type AlertsView = Schemas["Alerts"];
export type Administrator = Schemas["Administrator"];
export type InvitationOpened = Schemas["InvitationOpened"];
export type Domain = Schemas["Domain"];
export type SsoConnection = Schemas["SsoConnection"];

/** The 409 for an invitation its own invitee already accepted (docs/console-sign-in.md): the institution's name, or undefined. */
export function alreadyAccepted(err: unknown): { institution: string } | undefined {
  if (!(err instanceof ApiError) || err.status !== 409 || err.message !== "Invitation already accepted") return undefined;
  const body = err.body as { institution?: { name?: unknown } } | undefined;
  return { institution: typeof body?.institution?.name === "string" ? body.institution.name : "the institution" };
}
