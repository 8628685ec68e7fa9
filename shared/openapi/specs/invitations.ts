/**
 * The API document's invitation operations, by route key (see shared/openapi/spec.ts).
 */
import { paths } from "../../routes.js";
import { schemaRef as ref } from "../components.js";
import { examples } from "../examples.js";
import type { RequestSchemas } from "../requests.js";
import type { Spec } from "../spec.js";
import { idParam, instNotFound, mailBound, queryParams, single, superAdmin, validation } from "./common.js";

const INSTITUTION_ID_DESCRIPTION =
  "The institution: in the query or as `institution_id` in a JSON body (the body's wins). Without either, the institution is not found (404).";

export function invitationSpecs(req: RequestSchemas): Record<string, Spec> {
  const inv = paths.invitations;
  const invitationId = idParam("The invitation's id.");
  // The spec's "query or body": neither place alone is required, so neither is marked so.
  const institutionRef = queryParams(req.institutionRef, { institution_id: INSTITUTION_ID_DESCRIPTION }).map((p) => ({
    ...p,
    required: false,
  }));
  const institutionRefBody = {
    schema: req.institutionRef,
    example: { institution_id: "01M84M2ES7DTY37NE05PPBJBQG" },
    optional: true as const,
  };
  const invNotFound = { ...instNotFound, invitation: "Invitation not found" };
  return {
    [`GET ${inv}`]: {
      operationId: "listInvitations",
      summary: "List an institution's invitations",
      description: "Any administrator of the institution. Active invitations, or with `show_used=true` used ones; newest first, paged.",
      tag: "Invitations",
      parameters: queryParams(req.invitationListQuery, {
        institution_id: "The institution.",
        show_used: "`true` lists used invitations; any other value or none, active ones.",
        limit: "Page size.",
        cursor: "`meta.next_cursor` of the previous page.",
      }),
      success: { status: "200", description: "One page of invitations.", schema: ref("InvitationList"), example: examples.invitationList },
      errors: { 404: instNotFound },
    },
    [`POST ${inv}`]: {
      operationId: "createInvitation",
      summary: "Invite an administrator",
      description:
        "Needs the cohort-super-admin status and the role `cohort_super_admin` on the institution; only the institution's super admin may invite with the role `cohort_super_admin`. Mails the accept link and logs `invitation_created`. At most 3 active invitations per e-mail and institution, and bounded mail volume (per institution, per mailbox across the service, per account): each bound answers 429 with `Retry-After` and logs `rate_limit_exceeded`. The fields may also be sent as query parameters.",
      tag: "Invitations",
      body: {
        schema: req.invitationCreate,
        example: { institution_id: "01M84M2ES7DTY37NE05PPBJBQG", email: "ada@acme.test", role: "cohort_admin" },
      },
      success: {
        status: "201",
        description: "Invited; the e-mail is sent.",
        schema: ref("InvitationIssued"),
        example: examples.invitationCreated,
      },
      errors: {
        403: { ...superAdmin, superAdminRole: "Only the institution's super admin can invite super admins" },
        404: instNotFound,
        422: validation("Email already has access to this institution"),
        429: { pending: "Too many pending invitations for this email", ...mailBound },
        502: { mail: "Failed to send invitation email" },
      },
    },
    [`DELETE ${inv}/{id}`]: {
      operationId: "revokeInvitation",
      summary: "Revoke an invitation",
      description:
        "Needs the cohort-super-admin status and the role `cohort_super_admin` on the institution. The record stays, with `revoked_at`. Logs `invitation_revoked`.",
      tag: "Invitations",
      parameters: [invitationId, ...institutionRef],
      body: institutionRefBody,
      success: { status: "200", description: "Revoked.", schema: ref("Message"), example: examples.invitationRevoked },
      errors: {
        403: superAdmin,
        404: invNotFound,
        422: single({ notActive: "Failed to revoke invitation" }),
      },
    },
    [`POST ${inv}/{id}/resend`]: {
      operationId: "resendInvitation",
      summary: "Resend an invitation",
      description:
        "Same caller rule as create. Issues a new token (the old one stops working), restarts the validity period and mails again. Logs `invitation_resent`.",
      tag: "Invitations",
      parameters: [invitationId, ...institutionRef],
      body: institutionRefBody,
      success: { status: "200", description: "Resent.", schema: ref("InvitationResent"), example: examples.invitationResent },
      errors: {
        403: superAdmin,
        404: invNotFound,
        422: single({ notActive: "Cannot resend a revoked invitation" }),
        429: mailBound,
        502: { mail: "Failed to send invitation email" },
      },
    },
    [`POST ${paths.invitationsAccept}`]: {
      operationId: "acceptInvitation",
      summary: "Accept an invitation",
      description:
        "The signed-in user whose e-mail was invited. Grants the invited role (never lowers one the user has) and logs `invitation_accepted`; a failed attempt logs `token_validation_failure` and leaves the invitation as it was.",
      tag: "Invitations",
      // No example: the only valid one would be a token (it comes from the invitation e-mail's link).
      body: { schema: req.invitationAccept },
      success: { status: "200", description: "Accepted.", schema: ref("InvitationAccepted"), example: examples.invitationAccepted },
      errors: {
        422: single({ invalid: "Invalid or expired invitation", full: "Institution has reached its limit of 95 administrators" }),
      },
      alreadyAccepted: true,
    },
    [`POST ${paths.invitationsPreview}`]: {
      operationId: "previewInvitation",
      summary: "Preview an invitation",
      description:
        "The signed-in user whose e-mail was invited: what accepting would grant (the institution, the role, who invited, until when). The token goes in the body, never in a URL. Consumes nothing; a failure is accept's and logs `token_validation_failure`.",
      tag: "Invitations",
      body: { schema: req.invitationAccept },
      success: { status: "200", description: "The invitation.", schema: ref("InvitationPreview"), example: examples.invitationPreview },
      errors: { 422: single({ invalid: "Invalid or expired invitation" }) },
      alreadyAccepted: true,
    },
    [`POST ${paths.invitationsOpen}`]: {
      operationId: "openInvitation",
      summary: "Open an invitation, without an account",
      description:
        "No token of the API: the invitation token in the body is the credential. What preview shows, plus the invited e-mail and whether a user with it exists (`has_account`), so the page offers sign-in or creating an account. Consumes nothing. An unknown, expired or revoked token is accept's 422 and logs `token_validation_failure` in the institution owner's trail; a used one answers 409 `Invitation already accepted`, recording nothing. Refusals count against the probing bound of the source address.",
      tag: "Invitations",
      body: { schema: req.invitationOpen },
      success: { status: "200", description: "The invitation.", schema: ref("InvitationOpened"), example: examples.invitationOpened },
      errors: { 422: single({ invalid: "Invalid or expired invitation" }) },
      alreadyAccepted: true,
    },
    [`POST ${paths.invitationsRegister}`]: {
      operationId: "registerFromInvitation",
      summary: "Create an account from an invitation and accept it",
      description:
        "No token of the API: the invitation token in the body is the credential. Creates the user-pool user (the invited e-mail, verified; `name`; the inviting institution's account; no group), sets the password, and accepts the invitation as accept does, logging `account_created` and `invitation_accepted` in one transaction; then sign in. Refusals: a token as open's (422 + `token_validation_failure`, or 409 already accepted); `name` and `password` 422 `{errors}` (the password by the user pool's policy, saying what it lacks); 409 when a user with the e-mail exists (sign in and accept instead; the invitation stays active). Nothing is created on any refusal; refusals count against the probing bound of the source address.",
      tag: "Invitations",
      body: { schema: req.invitationRegister },
      success: {
        status: "201",
        description: "Account created.",
        schema: ref("InvitationRegistered"),
        example: examples.invitationRegistered,
      },
      errors: {
        409: { exists: "An account with this e-mail already exists; sign in to accept the invitation" },
        422: {
          shape: "either",
          examples: {
            invalid: { error: "Invalid or expired invitation" },
            password: { errors: ["Password is too short (minimum is 12 characters)", "Password must contain a symbol"] },
          },
        },
      },
      alreadyAccepted: true,
    },
  };
}
