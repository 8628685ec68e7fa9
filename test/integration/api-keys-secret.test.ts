/**
 * An institution API key is shown once (docs/api-keys.md): after the create response, the hash is its only stored
 * form. A key made, used (successes, refusals, a mail it sends, an idempotent POST), probed with near misses and
 * revoked; then every item of the three tables, every response since the create and every log of the run's local
 * stack are searched for it.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ScanCommand, type ScanCommandOutput } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { call, observeResponses, sentMail, stack, token, uniqEmail } from "../support/api.js";
import { keysPath, makeKey } from "../support/api-keys.js";
import { createInstitution, EVENTS, INST, INV } from "../support/flows.js";

/**
 * Every item of a table (a test may Scan; the service never does). In pages of 500 items: late in a full run the
 * tables are large, and a 1 MB page from DynamoDB Local on a busy machine can outlast the client's 3 s timeout.
 */
async function everything(table: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: ScanCommandOutput["LastEvaluatedKey"];
  do {
    const page: ScanCommandOutput = await db.send(
      new ScanCommand({ TableName: table, Limit: 500, ...(start && { ExclusiveStartKey: start }) }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every file under the run's log directory, as text. */
function logs(dir: string): string {
  return readdirSync(dir)
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
}

let owner: string;
let institutionId: string;

beforeAll(async () => {
  owner = await token(uniqEmail("secret-owner"), { superAdmin: true });
  institutionId = (await createInstitution(owner)).id;
});

describe("the key after its create response", () => {
  it("is nowhere: not in a table, a response, an event, a mail or a log; its SHA-256 hash is what is stored", async () => {
    const made = await makeKey(owner, institutionId, ["cohorts:read", "cohorts:write", "invitations:write"], { name: "Secret keeper" });
    const { key } = made;
    // The random part alone too: a store that cut the prefix, or a log that split the header, must not hold it either.
    const secret = key.slice("iak_".length);
    const responses: string[] = [];
    observeResponses((res) => responses.push(JSON.stringify(res.headers), res.text));

    const cohorts = `${INST}/${institutionId}/cohorts`;
    expect((await call("GET", cohorts, { token: key })).status).toBe(200);
    const idem = { token: key, body: { cohort: { name: "Once" } }, headers: { "idempotency-key": "secret-retry" } };
    expect((await call("POST", cohorts, idem)).status).toBe(201);
    expect((await call("POST", cohorts, idem)).status).toBe(201);
    expect((await call("GET", `${INST}/${institutionId}`, { token: key })).status).toBe(403);
    expect((await call("GET", `${INST}/01M84M2ES7DTY37NE05PPBJBQG/cohorts`, { token: key })).status).toBe(404);
    expect((await call("GET", EVENTS, { token: key, contract: false })).status).toBe(403);
    const email = uniqEmail("secret-invitee");
    expect((await call("POST", INV, { token: key, body: { institution_id: institutionId, email, role: "cohort_admin" } })).status).toBe(
      201,
    );
    // Near misses: one character changed, cut short, lengthened, as a person's token, in a query string.
    const flipped = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    for (const wrong of [flipped, key.slice(0, -1), `${key}A`]) expect((await call("GET", cohorts, { token: wrong })).status).toBe(401);
    expect([200, 400]).toContain((await call("GET", `${EVENTS}?api_key=${key}`, { token: owner })).status);
    expect((await call("GET", keysPath(institutionId), { token: owner })).status).toBe(200);
    expect((await call("DELETE", `${keysPath(institutionId)}/${made.id}`, { token: owner })).status).toBe(200);
    expect((await call("GET", cohorts, { token: key, clockOffsetMs: 61_000 })).status).toBe(401);
    const trail = await call("GET", EVENTS, { token: owner, query: { limit: 200 } });
    expect(trail.status).toBe(200);

    // The tables: never the key; the hash, once, on the key's item (its lookup item went with the revocation).
    const hash = createHash("sha256").update(key).digest("hex");
    const tables = [config.tables.main, config.tables.events, config.tables.idempotency].filter((t): t is string => t !== undefined);
    expect(tables).toHaveLength(3);
    const stored = (await Promise.all(tables.map(everything))).flat();
    const text = JSON.stringify(stored);
    expect(stored.length).toBeGreaterThan(0);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(key.slice(0, 24));
    const created = stored.filter((i) => JSON.stringify(i).includes(hash));
    expect(created).toEqual([]);
    // The key's event names it by id and name only.
    expect(trail.text).toContain(made.id);
    expect(trail.text).not.toContain(secret);

    for (const r of responses) expect(r).not.toContain(secret);
    const mail = (await sentMail(email)).map((m) => JSON.stringify(m)).join("\n");
    expect(mail).toContain("API key 'Secret keeper'");
    expect(mail).not.toContain(secret);
    // The run's logs: the gateway (which runs every handler and authorizer), DynamoDB Local, the others.
    const all = logs(stack.logDir);
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(secret);
  });

  it("is stored as its SHA-256 hash while it lives: the lookup item's key, and the key's item's `key_hash`", async () => {
    const { key, id } = await makeKey(owner, institutionId, ["cohorts:read"]);
    const hash = createHash("sha256").update(key).digest("hex");
    const items = (await everything(config.tables.main)).filter((i) => JSON.stringify(i).includes(hash));
    expect(items.map((i) => [i.pk, i.sk]).sort()).toEqual(
      [
        [`APIKEYHASH#${hash}`, "APIKEYHASH"],
        [`APIKEYS#${institutionId}`, `KEY#${id}`],
      ].sort(),
    );
    expect(JSON.stringify(items)).not.toContain(key.slice(4));
    expect(items.find((i) => i.sk === `KEY#${id}`)).toMatchObject({ key_hash: hash, key_preview: `${key.slice(0, 8)}...` });
  });
});
