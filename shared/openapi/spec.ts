/**
 * The shapes the document is built from (an operation, a route's spec), in a module of their own so that the
 * feature specs (specs/<feature>.ts) and document.ts all import them without importing each other.
 */
import type { HttpMethod } from "../routes.js";
import type { Schema } from "./components.js";

export type Document = {
  openapi: string;
  info: Schema;
  paths: Record<string, Partial<Record<Lowercase<HttpMethod>, Operation>>>;
  components: Schema;
  [key: string]: unknown;
};

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: Schema[];
  requestBody?: Schema;
  responses: Record<string, Schema>;
}

export type ErrorStatus = "403" | "404" | "409" | "422" | "429" | "502";

export interface Spec {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly parameters?: Schema[];
  /** Honours `If-Match` (412 when stale). */
  readonly ifMatch?: true;
  /** `optional`: the body may be left out (what it carries can come in the query instead). */
  readonly body?: { readonly schema: Schema; readonly example?: unknown; readonly optional?: true };
  readonly success: {
    readonly status: "200" | "201" | "202";
    readonly description: string;
    readonly schema: Schema;
    readonly example: unknown;
    /** Default JSON. */
    readonly media?: "text/csv" | "text/html";
    /** Beyond those every response carries. */
    readonly headers?: Record<string, Schema>;
  };
  /** Statuses this operation answers beyond those every route of its kind has; 422 names its body shape. */
  readonly errors?: Partial<Record<Exclude<ErrorStatus, "422">, Record<string, string>>> & {
    /** `either`: a record's `{errors}` or a state's `{error}` (register: its fields, or its token). */
    readonly 422?: { readonly shape: "errors" | "error" | "either"; readonly examples: Record<string, unknown> };
  };
  /**
   * May answer 409 `AlreadyAccepted`: the invitation was used by the one asking (docs/joining.md), or on a
   * public route, by anyone holding the token.
   */
  readonly alreadyAccepted?: true;
}
