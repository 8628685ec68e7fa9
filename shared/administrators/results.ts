/** What the administrator use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type AdministratorView = v.InferOutput<typeof r.Administrator>;
export type AdministratorList = v.InferOutput<typeof r.AdministratorList>;
export type AdministratorUpdated = v.InferOutput<typeof r.AdministratorUpdated>;
export type AdministratorRemoved = v.InferOutput<typeof r.AdministratorRemoved>;
