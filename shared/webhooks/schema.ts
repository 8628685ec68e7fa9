/** The body of `POST /webhooks`: `{url}`; https only (and loopback http on the local stack). */
import * as v from "valibot";
import { webhookConfig } from "./config.js";

export const WEBHOOK_ERRORS = {
  url: "Url must be an https URL",
  length: "Url is too long (maximum is 2048 characters)",
} as const;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether `text` is a URL deliveries may go to. */
export function isDeliverable(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === "https:") return true;
  return webhookConfig.allowLoopbackHttp && url.protocol === "http:" && LOOPBACK.has(url.hostname);
}

export const webhookCreate = v.object({
  url: v.pipe(v.string(WEBHOOK_ERRORS.url), v.trim(), v.maxLength(2048, WEBHOOK_ERRORS.length), v.check(isDeliverable, WEBHOOK_ERRORS.url)),
});
