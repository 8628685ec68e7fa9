/** What the SSO use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type SsoConnectionView = v.InferOutput<typeof r.SsoConnection>;
export type SsoConnectionShown = v.InferOutput<typeof r.SsoConnectionShown>;
export type SsoDiscovery = v.InferOutput<typeof r.SsoDiscovery>;
