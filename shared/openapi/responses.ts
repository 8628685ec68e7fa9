/**
 * Response schemas of the API document, generated from the valibot schemas the use cases take their result
 * types from (`shared/responses.ts`, `shared/<feature>/responses.ts`), so the two cannot drift. Each export of
 * those modules is a component schema of that name; a schema used inside another is a `$ref` to it.
 */
import { type ConversionConfig, type JsonSchema, toJsonSchemaDefs } from "@valibot/to-json-schema";
import type * as v from "valibot";
import * as administrators from "../administrators/responses.js";
import * as apiKeys from "../api-keys/responses.js";
import * as domains from "../domains/responses.js";
import * as fullExports from "../exports/responses.js";
import * as institutions from "../institutions/responses.js";
import * as invitations from "../invitations/responses.js";
import * as people from "../people/responses.js";
import * as common from "../responses.js";
import * as scim from "../scim/responses.js";
import * as events from "../security-events/responses.js";
import * as sso from "../sso/responses.js";
import * as webhooks from "../webhooks/responses.js";

const { ErrorBody, ...shared } = common;

/** Every response schema of the document, by its component name. */
export const responseSchemas = {
  ...shared,
  Error: ErrorBody,
  ...institutions,
  ...invitations,
  ...administrators,
  ...events,
  ...fullExports,
  ...webhooks,
  ...people,
  ...scim,
  ...apiKeys,
  ...domains,
  ...sso,
};

/** A component schema's name: what `schemaRef` accepts, so that a spec cannot name a schema that is not there. */
export type SchemaName = keyof typeof responseSchemas;

type Node = { kind: string; type: string; pipe?: readonly Node[]; wrapped?: Node; entries?: Record<string, Node>; key?: Node };

/**
 * The document's `{$ref, description}` for a named schema piped into a description only (the converter inlines
 * a schema that starts a pipe); undefined for anything else.
 */
function describedRef(node: Node, names: Map<unknown, string>): JsonSchema | undefined {
  const [first, ...rest] = node.pipe ?? [];
  const name = names.get(first);
  if (!name || !rest.every((a) => a.type === "description")) return undefined;
  const description = (rest.at(-1) as { description?: string } | undefined)?.description;
  return { $ref: `#/components/schemas/${name}`, ...(description && { description }) };
}

/** Converts every response schema; `errorMode: "throw"` (the tests) fails on anything the converter cannot express. */
export function convertResponses(errorMode: "throw" | "ignore" = "ignore"): Record<SchemaName, Record<string, unknown>> {
  const names = new Map<unknown, string>(Object.entries(responseSchemas).map(([name, schema]) => [schema, name]));
  const config: ConversionConfig = {
    target: "draft-2020-12",
    // Responses: the shape the service sends.
    typeMode: "output",
    errorMode,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
    overrideSchema: ({ valibotSchema, jsonSchema }) => {
      const node = valibotSchema as unknown as Node;
      const out: JsonSchema & Record<string, unknown> = { ...jsonSchema };
      if (node.entries) {
        const properties = { ...(out.properties as Record<string, JsonSchema>) };
        for (const [key, entry] of Object.entries(node.entries)) {
          const ref = describedRef(entry.type === "optional" && entry.wrapped ? entry.wrapped : entry, names);
          if (ref) properties[key] = ref;
        }
        out.properties = properties;
        // An object of optional keys only: JSON Schema's default, as the document wrote it.
        if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
      }
      if (node.type === "record" && node.key?.type === "string" && !node.key.pipe) {
        // Every property name is a string: the converter's `propertyNames` says nothing more.
        delete out.propertyNames;
        // Any value: JSON Schema's `true`, as the document wrote it.
        if (JSON.stringify(out.additionalProperties) === "{}") out.additionalProperties = true;
      }
      // A string constant keeps its type beside it, as the document wrote it.
      if (node.type === "literal" && typeof out.const === "string") out.type = "string";
      return out;
    },
  };
  return toJsonSchemaDefs(responseSchemas as unknown as Record<string, v.GenericSchema>, config) as Record<
    SchemaName,
    Record<string, unknown>
  >;
}
