/** What a person's own use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type MfaSetting = v.InferOutput<typeof r.MfaSetting>;
