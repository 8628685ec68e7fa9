/**
 * The API on the same origin (`/api/v1/...`), with the ID token as Bearer. An expired token is refreshed once
 * with the refresh token; when that fails too the session ends and the sign-in page says why.
 */
import type { components } from "../../shared/openapi/api-types";
import { clearSession, getSession, setSession } from "./auth/session";
import { loadConfig } from "./config";

export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when the API could not be reached. */
    readonly status: number,
    message: string,
    /** The contract's 422 `{errors: [...]}`, one message per field. */
    readonly errors: readonly string[] = [],
    /** From `Retry-After` (429): when the request may be made again. */
    readonly retryAt?: Date,
  ) {
    super(message);
  }
}

export const SESSION_EXPIRED = "Your session has expired. Sign in again.";

let refreshing: Promise<boolean> | undefined;

/** One refresh for every request that met the 401 together. */
function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = getSession()?.refreshToken;
    if (!refreshToken) return false;
    try {
      const { refresh } = await import("./auth/cognito");
      // A prefetch (main.tsx) may meet its 401 before the configuration has arrived.
      setSession(await refresh(await loadConfig(), refreshToken));
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
  return new ApiError(res.status, message, errors, retryAt(res));
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/** The raw response of a successful request (for the CSV download); throws ApiError otherwise. */
export async function request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const send = () => {
    const headers: Record<string, string> = { accept: "application/json, text/csv" };
    const token = getSession()?.idToken;
    if (token) headers.authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    return fetch(path, {
      method,
      headers,
      ...(opts.body !== undefined && { body: JSON.stringify(opts.body) }),
      ...(opts.signal && { signal: opts.signal }),
    });
  };
  let res: Response;
  try {
    res = await send();
    if (res.status === 401) {
      if (await refreshSession()) res = await send();
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

/** A JSON request; resolves to the parsed body. */
export async function api<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await request(method, path, opts);
  return (await res.json()) as T;
}

const prefetched = new Map<string, Promise<unknown>>();

/** Starts a GET before the page that needs it has loaded its code (main.tsx, for the first page). */
export function prefetch(path: string): void {
  const p = api("GET", path);
  p.catch(() => {}); // the page that takes it handles the failure
  prefetched.set(path, p);
}

/** The prefetched answer for `path`, once: later loads (a reload) ask again. */
export function takePrefetched<T>(path: string): Promise<T> | undefined {
  const p = prefetched.get(path);
  prefetched.delete(path);
  return p as Promise<T> | undefined;
}

// --- the contract's shapes -----------------------------------------------------------------------------

export type Role = "cohort_super_admin" | "cohort_admin";

export const SETTINGS = ["allow_student_enrollment", "require_verification", "auto_finalize", "email_notifications"] as const;
export type SettingKey = (typeof SETTINGS)[number];
export type Settings = Partial<Record<SettingKey, boolean>>;

export const SETTINGS_DEFAULTS: Required<Settings> = {
  allow_student_enrollment: true,
  require_verification: true,
  auto_finalize: false,
  email_notifications: true,
};

/** Response shapes come from the API document (shared/openapi/api-types.ts, generated and checked in npm test). */
type Schemas = components["schemas"];

export type InstitutionSummary = Schemas["InstitutionListItem"];
export type Institution = Schemas["Institution"];
export type InstitutionView = Schemas["InstitutionShown"];
export type Cohort = Schemas["Cohort"];
export type Invitation = Schemas["InvitationListItem"];
export type InvitationStatus = Invitation["status"];
export type PageMeta = Schemas["PageMeta"];
export type SecurityEvent = Schemas["ListedEvent"];
export type SecurityEventDetail = Schemas["SecurityEvent"];

export const COUNTED_TYPES = ["unauthorized_institution_access", "rate_limit_exceeded", "token_validation_failure"] as const;
export type CountedType = (typeof COUNTED_TYPES)[number];

export type AlertsView = Schemas["Alerts"];

export const EVENT_TYPES = [
  "institution_created",
  "institution_updated",
  "institution_deleted",
  "cohort_created",
  "invitation_created",
  "invitation_resent",
  "invitation_revoked",
  "invitation_accepted",
  "administrator_removed",
  "administrator_role_changed",
  "institution_transferred",
  "insufficient_privileges",
  "unauthorized_institution_access",
  "rate_limit_exceeded",
  "token_validation_failure",
  "security_events_exported",
] as const;
