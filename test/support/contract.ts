/**
 * Every response an integration test receives is checked against the API document (shared/openapi/): its
 * route must have an operation, the operation must list the status, the content type must be one it
 * lists, a JSON body must validate against the schema of that status (ajv, JSON Schema 2020-12, as
 * OpenAPI 3.1 uses), and the headers it requires must be there with values its schemas allow.
 * `call()` (api.ts) runs this on every response, so every integration test checks the document.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { buildDocument, type Document } from "../../shared/openapi/document.js";

// ajv-formats is CommonJS with a default export that NodeNext types as the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, unknown>;

export interface CheckedResponse {
  readonly status: number;
  /** Lower-cased names. */
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export const document: Document = buildDocument("throw");

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const ROOT = "https://institution-admin.invalid/openapi.json";
/** The document's `#/components/schemas/X` as refs into one registered schema of all of them. */
const rebase = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v) =>
    key === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/") ? `${ROOT}#/$defs/${v.slice(21)}` : v,
  );
ajv.addSchema({ $id: ROOT, $defs: rebase((document.components as Json).schemas) as Json });

const validators = new Map<string, ValidateFunction>();
function validator(key: string, schema: unknown): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = ajv.compile(rebase(schema) as Json);
    validators.set(key, v);
  }
  return v;
}

/** What is wrong with `value` against `schema`, a schema of the document (its `$ref`s resolved there); empty when valid. */
export function schemaProblems(schema: unknown, value: unknown): string[] {
  const check = validator(JSON.stringify(schema), schema);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}

/** `#/components/<kind>/<name>` resolved, or the object itself. */
function deref(value: unknown): Json {
  const ref = (value as Json | undefined)?.$ref;
  if (typeof ref !== "string") return value as Json;
  const [, , kind, name] = ref.split("/");
  return ((document.components as Json)[kind ?? ""] as Json)[name ?? ""] as Json;
}

const templates = Object.keys(document.paths).map((path) => ({ path, segments: path.split("/").slice(1) }));

/**
 * The document's path for a request path, as API Gateway picks a route: every segment matches, and a
 * literal segment wins over a `{param}` at the first position where candidates differ.
 */
export function documentPath(method: string, pathname: string): string | undefined {
  const parts = pathname.split("/").slice(1);
  const m = method.toLowerCase();
  // A greedy `{name+}` last segment takes the rest of the path, empty included, and loses to any other match.
  const greedy = (t: (typeof templates)[number]) => t.segments.at(-1)?.endsWith("+}") === true;
  const candidates = templates.filter(
    (t) =>
      (greedy(t) ? parts.length >= t.segments.length : t.segments.length === parts.length) &&
      (document.paths[t.path] as Json)[m] !== undefined &&
      t.segments.every(
        (s, i) => (greedy(t) && i === t.segments.length - 1) || (s.startsWith("{") ? (parts[i] ?? "") !== "" : s === parts[i]),
      ),
  );
  candidates.sort((a, b) => {
    if (greedy(a) !== greedy(b)) return greedy(a) ? 1 : -1;
    for (let i = 0; i < a.segments.length; i++) {
      const al = !a.segments[i]?.startsWith("{");
      const bl = !b.segments[i]?.startsWith("{");
      if (al !== bl) return al ? -1 : 1;
    }
    return 0;
  });
  return candidates[0]?.path;
}

/** The problems of `res` against the document; empty when it conforms. */
export function contractProblems(method: string, pathname: string, res: CheckedResponse): string[] {
  const path = documentPath(method, pathname);
  if (!path) return [`no operation in the API document for ${method} ${pathname}`];
  const opKey = `${method.toUpperCase()} ${path}`;
  const operation = (document.paths[path] as Json)[method.toLowerCase()] as Json;
  const response = (operation.responses as Json)[String(res.status)];
  if (!response)
    return [`${opKey}: status ${res.status} is not in the document (it lists ${Object.keys(operation.responses as Json).join(", ")})`];
  const resolved = deref(response);
  const problems: string[] = [];

  for (const [name, header] of Object.entries((resolved.headers as Json | undefined) ?? {})) {
    const def = deref(header);
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) {
      if (def.required) problems.push(`${opKey} ${res.status}: header ${name} is missing`);
      continue;
    }
    const check = validator(`header ${name}`, def.schema);
    if (!check(value)) problems.push(`${opKey} ${res.status}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(check.errors)}`);
  }

  const content = resolved.content as Json | undefined;
  const type = (res.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!content) return problems;
  const media = content[type] as Json | undefined;
  if (!media)
    return [...problems, `${opKey} ${res.status}: content type "${type}" is not in the document (${Object.keys(content).join(", ")})`];
  if (type !== "application/json") return problems;
  const check = validator(`${opKey} ${res.status} ${type}`, media.schema);
  if (!check(res.body))
    problems.push(`${opKey} ${res.status}: body ${ajv.errorsText(check.errors)}: ${JSON.stringify(res.body).slice(0, 500)}`);
  return problems;
}

/** Throws with every problem of `res`. */
export function assertConforms(method: string, pathname: string, res: CheckedResponse): void {
  const problems = contractProblems(method, pathname, res);
  if (problems.length > 0) throw new Error(`response breaks the API document:\n  ${problems.join("\n  ")}`);
}
