/**
 * Turns a request body into validated input: the root key missing or not an object is 400 (as Rails'
 * `params.require` answers), a failed schema is 422 with every message once.
 */
import * as v from "valibot";
import { BadRequest, ValidationFailed } from "./errors.js";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Validates `body[root]` against `schema`; throws BadRequest / ValidationFailed. */
export function parseRoot<S extends v.GenericSchema>(body: unknown, root: string, schema: S): v.InferOutput<S> {
  const value = isPlainObject(body) ? body[root] : undefined;
  if (!isPlainObject(value)) throw new BadRequest(`param is missing or the value is empty: ${root}`);
  return parseOrFail(schema, value);
}

/** Validates `value` against `schema`; throws ValidationFailed with each distinct message. */
export function parseOrFail<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw new ValidationFailed([...new Set(result.issues.map((i) => i.message))]);
}

/** Names of the keys of `body[root]` that the schema's whitelist knows, in the order submitted. */
export function submittedKeys(body: unknown, root: string, allowed: readonly string[]): string[] {
  const value = isPlainObject(body) ? body[root] : undefined;
  return isPlainObject(value) ? Object.keys(value).filter((k) => allowed.includes(k)) : [];
}
