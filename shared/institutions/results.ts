/** What the institution and cohort use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type InstitutionView = v.InferOutput<typeof r.Institution>;
export type InstitutionListItem = v.InferOutput<typeof r.InstitutionListItem>;
export type InstitutionList = v.InferOutput<typeof r.InstitutionList>;
export type InstitutionShown = v.InferOutput<typeof r.InstitutionShown>;
export type InstitutionWritten = v.InferOutput<typeof r.InstitutionWritten>;
export type CohortView = v.InferOutput<typeof r.Cohort>;
export type CohortList = v.InferOutput<typeof r.CohortList>;
export type CohortCreated = v.InferOutput<typeof r.CohortCreated>;
