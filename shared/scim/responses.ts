/**
 * The directory connection's response bodies (docs/scim.md), in valibot: schemas of the API document under
 * these names (see shared/responses.ts). Only the document and type-only imports use this module. The SCIM 2.0
 * protocol's own bodies are described as SCIM (shared/openapi/specs/scim.ts).
 */
import * as v from "valibot";
import { Role, Timestamp } from "../responses.js";

export const ScimConnection = v.pipe(
  v.strictObject({
    base_url: v.pipe(
      v.string(),
      v.description("The SCIM 2.0 service's base URL: the directory's Tenant URL (Entra ID) or SCIM connector base URL (Okta)."),
    ),
    token_preview: v.string(),
    created_at: Timestamp,
    rotated_at: v.nullable(Timestamp),
    last_used_at: v.pipe(v.nullable(Timestamp), v.description("When the directory last changed something.")),
    role_mappings: v.pipe(
      v.record(v.string(), Role),
      v.description("Group displayName → role; a user's highest mapped role applies, `cohort_admin` when none maps."),
    ),
  }),
  v.description("An institution's directory connection (SCIM 2.0). Never the token."),
);

export const ScimConnectionIssued = v.pipe(
  v.strictObject({
    base_url: v.string(),
    token: v.pipe(v.string(), v.description("`scim_` + 32 random bytes (base64url): shown this once, stored only as a hash.")),
    token_preview: v.string(),
    created_at: Timestamp,
    rotated_at: v.nullable(Timestamp),
  }),
  v.description("A new connection or a rotated token: the token is shown this once."),
);

export const ScimConnectionShown = v.strictObject({ scim: ScimConnection });
export const ScimConnectionWritten = v.strictObject({ scim: ScimConnectionIssued });
