/**
 * Result shapes several features' use cases share, as their schemas say (shared/responses.ts). Each feature takes
 * its own results from its schemas (`<feature>/results.ts`, type-only); the API document is generated from the same
 * schemas, and test/unit/result-types.test.ts checks at compile time that the generated client types agree.
 */
import type * as v from "valibot";
import type * as r from "./responses.js";

/** An ISO 8601 instant, UTC, with milliseconds. */
export type Timestamp = v.InferOutput<typeof r.Timestamp>;
export type Message = v.InferOutput<typeof r.Message>;
export type PageMeta = v.InferOutput<typeof r.PageMeta>;
