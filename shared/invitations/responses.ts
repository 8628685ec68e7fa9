/**
 * The invitation use cases' response bodies, in valibot: schemas of the API document under these names (see
 * shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { Id, PageMeta, Role, Timestamp } from "../responses.js";
import type { InvitationStatus } from "./model.js";

export const TokenPreview = v.pipe(
  v.string(),
  v.description("The first 8 characters of the invitation token and `...`; the full token is only ever in the e-mail."),
  v.regex(/^[A-Za-z0-9_-]{8}\.\.\.$/),
);

/** The invitation in the create response (resend adds its new `sent_at`). */
const issued = { id: Id, email: v.string(), role: Role, token_preview: TokenPreview, expires_at: Timestamp };

export const IssuedInvitation = v.strictObject(issued);
export const ResentInvitation = v.strictObject({ ...issued, sent_at: Timestamp });

const STATUSES = ["active", "used", "revoked", "expired"] as const satisfies readonly InvitationStatus[];

export const InvitationListItem = v.strictObject({
  id: Id,
  email: v.string(),
  role: Role,
  token_preview: TokenPreview,
  sent_at: Timestamp,
  expires_at: Timestamp,
  used_at: v.nullable(Timestamp),
  created_by: v.pipe(v.string(), v.description("E-mail of the administrator who created it, or `API key '<name>'` for an API key's.")),
  status: v.picklist(STATUSES),
});

export const InvitationList = v.strictObject({ invitations: v.array(InvitationListItem), meta: PageMeta });
export const InvitationIssued = v.strictObject({ invitation: IssuedInvitation, message: v.string() });
export const InvitationResent = v.strictObject({ invitation: ResentInvitation, message: v.string() });

const preview = {
  institution: v.strictObject({ name: v.string() }),
  role: Role,
  invited_by: v.strictObject({ email: v.string(), name: v.nullable(v.string()) }),
  expires_at: Timestamp,
};

export const InvitationPreview = v.strictObject(preview);

/** What open shows a visitor holding the token (docs/joining.md): preview's fields, the address and whether it has an account. */
export const InvitationOpened = v.strictObject({
  ...preview,
  email: v.pipe(v.string(), v.description("The invited address: the new account's e-mail and user name.")),
  has_account: v.pipe(v.boolean(), v.description("A user with this e-mail exists: sign in and accept, rather than register.")),
});

const joined = { institution: v.strictObject({ id: Id, name: v.string() }), role: Role };

export const InvitationAccepted = v.strictObject({ ...joined, message: v.string() });
export const InvitationRegistered = v.strictObject({ ...joined, message: v.literal("Account created") });
