/**
 * Input shapes of the invitation endpoints. Each field is parsed on its own because the contract checks
 * them at different points (institution → role → pending limit → e-mail); a value of the wrong type is
 * treated like a missing one.
 */
import * as v from "valibot";
import { messages } from "../errors.js";
import { DEFAULT_LIMIT, limitParam, queryParam } from "../paging.js";
import { ROLES } from "../roles.js";
import { isPlainText, maxCodePoints } from "../text.js";

export const EMAIL_INVALID = "Email is invalid";

/**
 * Deliberately stricter than RFC 5322: an ASCII local part and a plain DNS domain. The domain can hold no
 * `#`, so an e-mail can never be a key prefix of another one (`EMAIL#<email>#...`), and nothing long or
 * odd reaches a DynamoDB key.
 */
const INVITEE_EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Trimmed and lower-cased, then checked. */
export const emailSchema = v.pipe(
  v.string(EMAIL_INVALID),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, EMAIL_INVALID),
  v.regex(INVITEE_EMAIL, EMAIL_INVALID),
);

export const roleSchema = v.picklist(ROLES, messages.invalidRole);

/** 32 random bytes in base64url are exactly 43 characters; anything else cannot be a token we issued. */
export const tokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/));

/** Query of the list: `show_used=true` lists used invitations instead of active ones; paged. */
export const invitationListQuery = v.pipe(
  v.object({ show_used: v.optional(v.string()), limit: limitParam, cursor: queryParam }),
  // valibot types a key whose schema accepts undefined as optional; the default is already applied.
  v.transform((q) => ({ ...q, limit: q.limit ?? DEFAULT_LIMIT })),
);

/** Body of accept. */
export const acceptInput = v.object({ token: tokenSchema });

export const NAME_MAX = 128;

/** The joining person's name (docs/joining.md): one line, 1–128 code points after trim (the single-line text rules). */
export const joinName = v.pipe(
  v.string("Name can't be blank"),
  v.trim(),
  v.nonEmpty("Name can't be blank"),
  v.check((s: string) => isPlainText(s), "Name contains invalid characters"),
  maxCodePoints(NAME_MAX, `Name is too long (maximum is ${NAME_MAX} characters)`),
);

/**
 * Bodies of open and register, for the API document: the use cases (invitations/join.ts) read the fields one
 * at a time, in the contract's order (token, then name and password).
 */
export const openInput = v.object({ token: tokenSchema });
export const registerInput = v.object({ token: tokenSchema, name: joinName, password: v.string() });

/** The parameters an invitation endpoint may take, from the JSON body or the query (body first, as Rails merges them). */
export interface InvitationParams {
  institution_id?: string;
  email?: unknown;
  role?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Picks the invitation parameters out of the body and the query; a non-string `institution_id` counts as absent. */
export function invitationParams(query: Readonly<Record<string, string | undefined>>, body: unknown): InvitationParams {
  const b = isObject(body) ? body : {};
  const institutionId = b.institution_id !== undefined ? b.institution_id : query.institution_id;
  return {
    ...(typeof institutionId === "string" && { institution_id: institutionId }),
    email: b.email !== undefined ? b.email : query.email,
    role: b.role !== undefined ? b.role : query.role,
  };
}

/** The normalized e-mail, or undefined when it is missing or invalid. */
export function parseEmail(value: unknown): string | undefined {
  const result = v.safeParse(emailSchema, value);
  return result.success ? result.output : undefined;
}

/*
 * Whole-request shapes of the invitation endpoints, for the API document and its clients (shared/openapi/).
 * The handlers read the same fields one at a time through `invitationParams`, as the contract's check order
 * needs (institution → role → pending limit → e-mail); these say what a request that passes every step holds.
 */

/** The institution an invitation endpoint acts on: `institution_id`, in the query (or the JSON body). */
export const institutionRef = v.object({ institution_id: v.pipe(v.string(), v.nonEmpty()) });

/** Body of create (its fields may also come as query parameters). */
export const invitationCreateInput = v.object({ ...institutionRef.entries, email: emailSchema, role: roleSchema });
