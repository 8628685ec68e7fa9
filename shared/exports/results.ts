/** What the full-export use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type ExportView = v.InferOutput<typeof r.Export>;
export type ExportShown = v.InferOutput<typeof r.ExportShown>;
