/** What the invitation use cases return: the API's response bodies, as their schemas say (responses.ts). */
import type * as v from "valibot";
import type * as r from "./responses.js";

export type IssuedInvitation = v.InferOutput<typeof r.IssuedInvitation>;
export type InvitationIssued = v.InferOutput<typeof r.InvitationIssued>;
export type ResentInvitation = v.InferOutput<typeof r.ResentInvitation>;
export type InvitationResent = v.InferOutput<typeof r.InvitationResent>;
export type InvitationListItem = v.InferOutput<typeof r.InvitationListItem>;
export type InvitationList = v.InferOutput<typeof r.InvitationList>;
export type InvitationPreview = v.InferOutput<typeof r.InvitationPreview>;
export type InvitationAccepted = v.InferOutput<typeof r.InvitationAccepted>;
export type InvitationOpened = v.InferOutput<typeof r.InvitationOpened>;
export type InvitationRegistered = v.InferOutput<typeof r.InvitationRegistered>;
