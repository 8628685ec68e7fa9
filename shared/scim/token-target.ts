/**
 * The SCIM authorizer's one read (docs/scim.md): the connection a bearer token's hash names. Apart from
 * repository.ts, whose directory writes bring the audit door, the membership door and the institutions' schemas
 * into a bundle: the authorizer carries only this GetItem (docs/cold-starts.md).
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db } from "../clients.js";
import { config } from "../config.js";
import { scimKeys, withoutKey } from "../tables.js";
import type { TokenTarget } from "./model.js";

/** The token's target: one GetItem, eventually consistent (a new token is never used within a second). */
export async function getTokenTarget(tokenHash: string): Promise<TokenTarget | undefined> {
  const out = await db.send(new GetCommand({ TableName: config.tables.main, Key: scimKeys.token(tokenHash) }));
  return out.Item && withoutKey<TokenTarget>(out.Item);
}
