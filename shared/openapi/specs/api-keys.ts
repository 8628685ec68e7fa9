/**
 * The API document's institution API key operations (docs/api-keys.md), by route key (see shared/openapi/spec.ts).
 * The routes a key may call say so themselves (document.ts: their scope, the `apiKey` scheme, the 403).
 */
import { paths } from "../../routes.js";
import { schemaRef as ref, type Schema } from "../components.js";
import { examples } from "../examples.js";
import type { RequestSchemas } from "../requests.js";
import type { Spec } from "../spec.js";
import { institutionId, instNotFound } from "./common.js";

export function apiKeySpecs(req: RequestSchemas): Record<string, Spec> {
  const keys = `${paths.institutions}/{id}/api_keys`;
  const keyId: Schema = { name: "key_id", in: "path", required: true, description: "The key's id.", schema: { type: "string" } };
  const superAdmin = { superAdmin: "Only the institution's super admin can manage its API keys" };
  return {
    [`POST ${keys}`]: {
      operationId: "createApiKey",
      summary: "Make an API key for the institution",
      description:
        "The institution's super admin. A key is a machine's credential for this institution alone: send it as `Authorization: Bearer iak_…` on the same paths; its scopes are its whole grant (each route a key may call names its scope), and it invites `cohort_admin` only. The key is in this answer only; the service keeps its SHA-256 hash and its first 8 characters. At most 20 live (unexpired) keys per institution. A revoked key stops working within 60 seconds, an expired one at once. Logs `api_key_created`.",
      tag: "API keys",
      parameters: [institutionId],
      body: {
        schema: req.apiKeyCreate,
        example: { name: "SIS sync", scopes: ["cohorts:write", "invitations:write"], expires_at: "2027-06-30T00:00:00.000Z" },
      },
      success: {
        status: "201",
        description: "Made: the key is shown this once.",
        schema: ref("ApiKeyCreated"),
        example: examples.apiKeyCreated,
      },
      errors: {
        403: superAdmin,
        404: instNotFound,
        422: {
          shape: "either",
          examples: {
            validation: { errors: ["Name can't be blank"] },
            tooMany: { error: "An institution has at most 20 live API keys: revoke one first" },
          },
        },
      },
    },
    [`GET ${keys}`]: {
      operationId: "listApiKeys",
      summary: "List the institution's API keys",
      description: "The institution's super admin. Newest first, with each key's last use (noted at most once a minute); never a key.",
      tag: "API keys",
      parameters: [institutionId],
      success: {
        status: "200",
        description: "The keys.",
        schema: ref("ApiKeyList"),
        example: { api_keys: [examples.apiKeyCreated.api_key] },
      },
      errors: { 403: superAdmin, 404: instNotFound },
    },
    [`DELETE ${keys}/{key_id}`]: {
      operationId: "revokeApiKey",
      summary: "Revoke an API key",
      description:
        "The institution's super admin. The key stops working within 60 seconds (the machines' API caches its authorizer's answer for at most that long). Invitations it sent stay until they are used, expire or are revoked. Logs `api_key_revoked`.",
      tag: "API keys",
      parameters: [institutionId, keyId],
      success: { status: "200", description: "Revoked.", schema: ref("Message"), example: { message: "API key 'SIS sync' revoked" } },
      errors: { 403: superAdmin, 404: { ...instNotFound, key: "API key not found" } },
    },
  };
}
