/** What the verified-domain use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type DomainView = v.InferOutput<typeof r.Domain>;
export type DomainShown = v.InferOutput<typeof r.DomainShown>;
export type DomainList = v.InferOutput<typeof r.DomainList>;
