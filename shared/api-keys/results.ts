/** What the API key use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type ApiKeyView = v.InferOutput<typeof r.ApiKey>;
export type ApiKeyList = v.InferOutput<typeof r.ApiKeyList>;
export type ApiKeyCreated = v.InferOutput<typeof r.ApiKeyCreated>;
