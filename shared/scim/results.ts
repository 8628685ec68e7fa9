/** What the directory connection's use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type ScimConnectionView = v.InferOutput<typeof r.ScimConnection>;
export type ScimConnectionShown = v.InferOutput<typeof r.ScimConnectionShown>;
export type ScimConnectionWritten = v.InferOutput<typeof r.ScimConnectionWritten>;
