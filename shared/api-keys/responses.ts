/**
 * The API key use cases' response bodies (docs/api-keys.md), in valibot: schemas of the API document under these
 * names (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { Id, Timestamp } from "../responses.js";
import { SCOPES } from "./scopes.js";

export const ApiKeyScope = v.pipe(v.picklist(SCOPES), v.description("What a key may do: the routes each opens are in their operations."));

export const ApiKey = v.pipe(
  v.strictObject({
    id: Id,
    name: v.string(),
    scopes: v.array(ApiKeyScope),
    key_preview: v.pipe(
      v.string(),
      v.regex(/^iak_[A-Za-z0-9_-]{4}\.\.\.$/),
      v.description("The key's first 8 characters and `...`: the key itself is shown only when it is made."),
    ),
    created_at: Timestamp,
    created_by: v.pipe(v.string(), v.description("E-mail of the super admin who made it.")),
    expires_at: v.pipe(v.nullable(Timestamp), v.description("When it stops working; null: never.")),
    last_used_at: v.pipe(v.nullable(Timestamp), v.description("Its last use, noted at most once a minute; null: never used.")),
  }),
  v.description("An institution API key. Never the key."),
);

export const ApiKeyList = v.strictObject({ api_keys: v.pipe(v.array(ApiKey), v.description("Newest first.")) });

export const ApiKeyCreated = v.strictObject({
  api_key: ApiKey,
  key: v.pipe(
    v.string(),
    v.regex(/^iak_[A-Za-z0-9_-]{43}$/),
    v.description(
      "`iak_` + 32 random bytes (base64url): shown this once, stored only as a SHA-256 hash. Send it as `Authorization: Bearer <key>`.",
    ),
  ),
});
