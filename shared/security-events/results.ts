/** What the security-event use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type ListedEvent = v.InferOutput<typeof r.ListedEvent>;
export type SecurityEventList = v.InferOutput<typeof r.SecurityEventList>;
/** A type alias (as every one here): the trail's digests hash it as a plain record (trail/digest.ts `EventBody`). */
export type SecurityEventView = v.InferOutput<typeof r.SecurityEvent>;
export type AlertCounts = v.InferOutput<typeof r.AlertCounts>;
export type AlertMinute = v.InferOutput<typeof r.AlertMinute>;
export type Alerts = v.InferOutput<typeof r.Alerts>;
export type DigestList = v.InferOutput<typeof r.DigestList>;
