/**
 * The institution item's version guard: the one builder of an update of the institution that holds only while
 * it is at the version read, and bumps that version. Its changes of members (shared/membership/), its fields
 * (`institutions/repository.ts`) and its transfer (`administrators/repository.ts`) all go through it, so that
 * any two of them racing serialise: the loser reads again.
 */
import { config } from "../config.js";
import { keys } from "../tables.js";
import { returnOldOnFailure, type TxItem } from "../tx.js";
import type { Institution } from "./model.js";

/** What to change besides the version: `set` and `remove` clauses of an UpdateExpression, and their names and values. */
export interface InstitutionUpdate {
  readonly set?: string | undefined;
  readonly remove?: string | undefined;
  readonly names?: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

/** The institution item's update, only while it is at the version read; the stored item comes back when it is not. */
export function institutionChange(i: Pick<Institution, "id" | "version">, update: InstitutionUpdate): TxItem {
  return {
    Update: {
      TableName: config.tables.main,
      Key: keys.institution(i.id),
      UpdateExpression: `SET ${[update.set, "#version = :next"].filter(Boolean).join(", ")}${update.remove ? ` REMOVE ${update.remove}` : ""}`,
      ConditionExpression: "#version = :version",
      ExpressionAttributeNames: { "#version": "version", ...update.names },
      ExpressionAttributeValues: { ":version": i.version, ":next": i.version + 1, ...update.values },
      ...returnOldOnFailure,
    },
  };
}
