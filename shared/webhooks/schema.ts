/**
 * The body of `POST /webhooks`: `{url}`; https only (and loopback on the local stack), checked as written by
 * the SSRF guard (guard.ts). What the host resolves to is checked after, by the use case (DNS is async).
 */
import * as v from "valibot";
import { webhookConfig } from "./config.js";
import { GUARD_MESSAGES, urlRefusal } from "./guard.js";

export const WEBHOOK_ERRORS = {
  ...GUARD_MESSAGES,
  url: GUARD_MESSAGES.scheme,
  length: "Url is too long (maximum is 2048 characters)",
} as const;

/** The guard's settings here: loopback receivers only where the local stack allows them. */
export const guardOptions = { allowLoopback: webhookConfig.allowLoopbackHttp } as const;

export const webhookCreate = v.object({
  url: v.pipe(
    v.string(WEBHOOK_ERRORS.url),
    v.trim(),
    v.maxLength(2048, WEBHOOK_ERRORS.length),
    v.rawCheck(({ dataset, addIssue }) => {
      const refused = dataset.typed ? urlRefusal(dataset.value, guardOptions) : undefined;
      if (refused !== undefined) addIssue({ message: refused });
    }),
  ),
});
