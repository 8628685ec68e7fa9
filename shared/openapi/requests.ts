/**
 * Request schemas of the API document, generated from the valibot schemas the handlers validate with, so
 * the two cannot drift. What JSON Schema cannot say is settled here, from the valibot schemas themselves
 * where it can be (a guard's object, a regex applied after trimming or lower-casing, a blank default that
 * makes a field required), and by an explicit override only where a value is parsed by code (a page `limit`).
 */
import { type ConversionConfig, type JsonSchema, toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { administratorListQuery, roleChangeInput, transferInput } from "../administrators/schema.js";
import { apiKeyCreate } from "../api-keys/schema.js";
import { cohortInput, institutionCreate, institutionInput } from "../institutions/schema.js";
import {
  acceptInput,
  institutionRef,
  invitationCreateInput,
  invitationListQuery,
  openInput,
  registerInput,
} from "../invitations/schema.js";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../paging.js";
import { PASSWORD_MAX_LENGTH, PASSWORD_POLICY } from "../password-policy.js";
import { digestsQuery, exportQuery, listQuery } from "../security-events/schema.js";

type AnySchema = v.GenericSchema;
type AnyObject = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
type SchemaNode = {
  type: string;
  kind: string;
  pipe?: readonly SchemaNode[];
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
  default?: unknown;
};

/** Every schema and action under `root`, depth first. */
function* walk(root: SchemaNode): Generator<SchemaNode> {
  yield root;
  for (const item of root.pipe ?? []) if (item !== root) yield* walk(item);
  if (root.wrapped) yield* walk(root.wrapped);
  for (const entry of Object.values(root.entries ?? {})) yield* walk(entry);
}

/** A missing or null value that a schema turns into "" (or an empty list) so that it fails as blank: the field must be sent. */
const blankDefault = (s: SchemaNode) =>
  (s.type === "optional" || s.type === "nullable") && (s.default === "" || (Array.isArray(s.default) && s.default.length === 0));

/** Strings checked after `toLowerCase`: the regex sees lower case only, a client may send either. */
const caseInsensitive = (pattern: string) => pattern.replaceAll("a-z", "A-Za-z");

/** Strings checked after `trim`: an anchored regex sees the value without the white space a client may send around it. */
const untrimmed = (pattern: string) =>
  pattern.startsWith("^") && pattern.endsWith("$") ? `^\\s*(?:${pattern.slice(1, -1)})\\s*$` : pattern;

/**
 * The conversion of `root`. `errorMode: "throw"` (the tests) fails on anything this file does not know how
 * to express, so a new kind of check shows up here instead of vanishing from the document; the served
 * document uses "ignore" so that such a check cannot take the docs function down.
 */
function conversion(root: SchemaNode, errorMode: "throw" | "ignore"): ConversionConfig {
  // A `custom` guard first in a pipe (an object that must not be an array) stands for the schema after it.
  const guarded = new Map<SchemaNode, SchemaNode>();
  const afterLowerCase = new Set<SchemaNode>();
  const afterTrim = new Set<SchemaNode>();
  for (const node of walk(root)) {
    const pipe = node.pipe ?? [];
    pipe.forEach((item, i) => {
      const next = pipe[i + 1];
      if (i === 0 && item.type === "custom" && next?.kind === "schema") guarded.set(item, next);
      if (item.type === "regex" && pipe.slice(0, i).some((p) => p.type === "to_lower_case")) afterLowerCase.add(item);
      if (item.type === "regex" && pipe.slice(0, i).some((p) => p.type === "trim")) afterTrim.add(item);
    });
  }
  const config: ConversionConfig = {
    target: "draft-2020-12",
    // Requests: the shape a client sends, before any transformation.
    typeMode: "input",
    errorMode,
    // Value rules beyond JSON Schema (trimming, lower-casing, control characters, the webhook URL's SSRF
    // guard): the 422 messages and the operation's description say them.
    ignoreActions: ["trim", "to_lower_case", "check", "raw_check", "normalize", "line_feeds"],
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      const node = valibotSchema as unknown as SchemaNode;
      const inner = guarded.get(node);
      if (inner) return convert(inner as unknown as AnySchema, errorMode);
      if (blankDefault(node) && node.wrapped) {
        // Documented as the value it must be: what the default stands in for is refused with a 422.
        const { default: _blank, anyOf, ...rest } = jsonSchema as JsonSchema & { anyOf?: JsonSchema[] };
        return node.type === "nullable" ? { ...rest, ...(anyOf?.[0] as object) } : rest;
      }
      return undefined;
    },
    overrideAction: ({ valibotAction, jsonSchema }) => {
      // `maxCodePoints` (shared/text.ts): JSON Schema's maxLength counts code points as it does.
      const action = valibotAction as { type: string; max?: number };
      if (action.type === "max_code_points") return { ...jsonSchema, maxLength: action.max };
      const node = valibotAction as unknown as SchemaNode;
      if (typeof jsonSchema.pattern !== "string" || !(afterLowerCase.has(node) || afterTrim.has(node))) return undefined;
      let pattern = jsonSchema.pattern;
      if (afterLowerCase.has(node)) pattern = caseInsensitive(pattern);
      if (afterTrim.has(node)) pattern = untrimmed(pattern);
      return { ...jsonSchema, pattern };
    },
  };
  return config;
}

function convert(schema: AnySchema, errorMode: "throw" | "ignore"): JsonSchema {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, conversion(schema as unknown as SchemaNode, errorMode));
  return json;
}

/** An object schema with the keys that have a blank default listed as required (see `blankDefault`). */
export function convertObject(schema: AnyObject, errorMode: "throw" | "ignore", overrides = new Map<unknown, JsonSchema>()): Schema {
  const json = convert(schema as unknown as AnySchema, errorMode);
  const properties = { ...(json.properties as Record<string, JsonSchema>) };
  const required = new Set(json.required ?? []);
  for (const [key, entry] of Object.entries(schema.entries)) {
    if (blankDefault(entry as unknown as SchemaNode)) required.add(key);
    const override = overrides.get(entry);
    if (override) properties[key] = { ...override, ...(properties[key]?.description && { description: properties[key].description }) };
  }
  return { ...json, properties, required: [...required] } as Schema;
}

/** A page `limit`: parsed by code (a digit string to a number), an integer on the wire. */
const pageLimit = (max: number, dflt: number): JsonSchema => ({ type: "integer", minimum: 1, maximum: max, default: dflt });

/** The object of a `pipe(object, check…, transform…)` query schema. */
export const objectOf = (schema: { pipe: readonly unknown[] }) => schema.pipe[0] as AnyObject;

type Schema = Record<string, unknown>;

export interface RequestSchemas {
  readonly institutionCreate: Schema;
  readonly institutionUpdate: Schema;
  readonly cohortCreate: Schema;
  readonly invitationCreate: Schema;
  readonly invitationAccept: Schema;
  readonly invitationOpen: Schema;
  readonly invitationRegister: Schema;
  readonly institutionRef: Schema;
  readonly invitationListQuery: Schema;
  readonly securityEventListQuery: Schema;
  readonly securityEventExportQuery: Schema;
  readonly administratorListQuery: Schema;
  readonly roleChange: Schema;
  readonly transfer: Schema;
  readonly securityEventDigestsQuery: Schema;
  readonly apiKeyCreate: Schema;
}

/** Every request schema of the document. */
export function requestSchemas(errorMode: "throw" | "ignore" = "ignore"): RequestSchemas {
  const root = (key: string, inner: Schema): Schema => ({ type: "object", properties: { [key]: inner }, required: [key] });
  const events = objectOf(listQuery);
  const invitations = objectOf(invitationListQuery);
  const ref = convertObject(institutionRef, errorMode) as { properties: Schema; required: string[] };
  const page = convertObject(invitations, errorMode, new Map([[invitations.entries.limit, pageLimit(MAX_LIMIT, DEFAULT_LIMIT)]])) as {
    properties: Schema;
    required?: string[];
  };
  const exported = objectOf(exportQuery);
  const admins = objectOf(administratorListQuery);
  return {
    institutionCreate: root("institution", convertObject(institutionCreate, errorMode)),
    institutionUpdate: root("institution", convertObject(institutionInput, errorMode)),
    cohortCreate: root("cohort", convertObject(cohortInput, errorMode)),
    invitationCreate: convertObject(invitationCreateInput, errorMode),
    invitationAccept: convertObject(acceptInput, errorMode),
    invitationOpen: convertObject(openInput, errorMode),
    invitationRegister: {
      ...convertObject(registerInput, errorMode),
      // The pool's policy (shared/password-policy.ts), checked by code before anything is created.
      properties: {
        ...(convertObject(registerInput, errorMode).properties as Schema),
        password: {
          type: "string",
          minLength: PASSWORD_POLICY.minLength,
          maxLength: PASSWORD_MAX_LENGTH,
          description: `The new account's password: at least ${PASSWORD_POLICY.minLength} characters, with a lowercase and an uppercase letter, a digit and a symbol (the user pool's policy).`,
        },
      },
    },
    institutionRef: convertObject(institutionRef, errorMode),
    // The institution is named as on every invitation endpoint; the rest is the list's own query.
    invitationListQuery: {
      ...page,
      properties: { ...ref.properties, ...page.properties },
      required: [...ref.required, ...(page.required ?? [])],
    },
    securityEventListQuery: convertObject(events, errorMode, new Map([[events.entries.limit, pageLimit(MAX_LIMIT, DEFAULT_LIMIT)]])),
    securityEventExportQuery: convertObject(exported, errorMode),
    administratorListQuery: convertObject(admins, errorMode, new Map([[admins.entries.limit, pageLimit(MAX_LIMIT, DEFAULT_LIMIT)]])),
    roleChange: convertObject(roleChangeInput, errorMode),
    transfer: convertObject(transferInput, errorMode),
    securityEventDigestsQuery: convertObject(objectOf(digestsQuery), errorMode),
    apiKeyCreate: convertObject(apiKeyCreate, errorMode),
  };
}
