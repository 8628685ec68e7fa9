/** What the webhook use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type WebhookView = v.InferOutput<typeof r.Webhook>;
export type WebhookList = v.InferOutput<typeof r.WebhookList>;
export type WebhookCreated = v.InferOutput<typeof r.WebhookCreated>;
export type WebhookDeliveryView = v.InferOutput<typeof r.WebhookDelivery>;
export type WebhookDeliveries = v.InferOutput<typeof r.WebhookDeliveries>;
