/**
 * Result shapes several features' use cases share. Each feature declares its own results beside its use cases
 * (`<feature>/results.ts`); the API document describes the same shapes, and test/unit/result-types.test.ts
 * checks at compile time that the two agree, so the domain never imports the document's types.
 */

/** An ISO 8601 instant, UTC, with milliseconds. */
export type Timestamp = string;

export interface Message {
  message: string;
}

export interface PageMeta {
  /** Items on this page. */
  count: number;
  limit: number;
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}
