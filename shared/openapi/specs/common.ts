/** What the feature specs (shared/openapi/specs/<feature>.ts) share: parameters, refusals and their examples. */
import type { Schema } from "../components.js";

export const idParam = (description: string): Schema => ({
  name: "id",
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});

/** Query parameters from a converted valibot object schema, each with its description. */
export function queryParams(schema: Schema, descriptions: Record<string, string>): Schema[] {
  const properties = schema.properties as Record<string, Schema>;
  const required = new Set(schema.required as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(descriptions[name] && { description: descriptions[name] }),
    schema: s,
  }));
}

export const institutionId = idParam("The institution's id.");
export const instNotFound = { institution: "Institution not found or access denied" };
export const superAdmin = { superAdmin: "Super admin access required" };
export const mailBound = { mailBound: "Too many invitation e-mails, try again later" };
export const etag = { ETag: { $ref: "#/components/headers/ETag" } };

/** A 422 `{errors}`: the record's messages. */
export const validation = (...messages: string[]) => ({
  shape: "errors" as const,
  examples: { validation: { errors: messages } },
});

/** A 422 `{error}`: the state's refusal, by example name. */
export const single = (examples: Record<string, string>) => ({
  shape: "error" as const,
  examples: Object.fromEntries(Object.entries(examples).map(([k, error]) => [k, { error }])),
});
