/**
 * The one membership door (docs/contract/administrators.md, docs/scim.md, docs/code-structure.md): granting access, changing a role and removing access, for
 * every way in: invitation accept and join (shared/invitations/), the administrators routes
 * (shared/administrators/), the directory (shared/scim/), and a first sign-in with the institution's SSO
 * (shared/sso/sign-in.ts).
 *
 * A door reads the institution, opens a `MembershipChange` on it, takes its steps (`grant`, `changeRole`,
 * `remove`; each answers `ok`, a refusal, or `retry`), records its own events with `record`, and commits the
 * change with its own items through `commitMembership` (or, for accept, hands `items()` to its repository):
 * one transaction through the audited-write door (`commitWithEvents`), guarded by the institution's version.
 *
 * What holds whichever door is used:
 * - seats, access records and member markers change together, and the 95-seat limit holds;
 * - the institution's super admin (its owner) is out of reach: no step changes its seat or its access record
 *   (a transfer alone does); accepting an invitation that gives it nothing new is no change;
 * - removal is final: the removal revokes the active invitations the person sent, and holds only at the count
 *   of sent invitations it read on the access record before it read them, so an invitation committed
 *   concurrently is either among them or makes the removal fail and read again; an invitation is accepted
 *   only while its sender holds a seat.
 */
import { isKeyActorId } from "../api-keys/model.js";
import { type AuditEvent, auditEvent, commitWithEvents, type EventDetails, type EventType, fitsWithEvents } from "../audit.js";
import type { Caller } from "../caller.js";
import { config } from "../config.js";
import { type Institution, MAX_MEMBERS, memberRole } from "../institutions/model.js";
import { institutionChange } from "../institutions/version.js";
import { activeInvitationsSentBy, revocationItems } from "../invitations/repository.js";
import type { Role } from "../roles.js";
import { keys } from "../tables.js";
import { logger } from "../telemetry.js";
import type { TooLarge, TxItems, TxResult, Written } from "../tx.js";
import type { AccessRecord, MembershipRefusal, Person, Source } from "./model.js";
import { deleteAccess, deleteMarker, getAccess, type Origin, putAccess, putMarker, updateAccess } from "./repository.js";

export type { AccessRecord, Member, MembershipRefusal, Person, Source } from "./model.js";

/** What one step of a change came to: taken, refused (nothing of the change may be written), or to be judged again from a fresh read. */
export type Step = Written<MembershipRefusal>;

const OK = { kind: "ok" } as const;
const RETRY_STEP = { kind: "retry" } as const;
const OWNER = { kind: "owner_out_of_reach" } as const;

/** Who makes the change, and when: every event of the change is theirs, in their trail and the owner account's (`owner`). */
export interface ChangeContext {
  readonly actor: Caller;
  readonly now: Date;
  /** The account owning the institution, when the events go to its trail as well as the actor's. */
  readonly owner?: string | undefined;
}

/** One invitation the change revokes: its items and its event. */
interface Revocation {
  readonly items: TxItems;
  readonly event: AuditEvent;
}

/** What the access record says of the door that gave or last changed it. */
const originOf = (source: Source): Origin => (source.via === "directory" ? { managed_by: "scim", scim_connection: source.connection } : {});

/** The changes of one request to one institution's members, as read at `institution.version`. */
export class MembershipChange {
  readonly #institution: Institution;
  readonly #ctx: ChangeContext;
  /** Seats changed by this change: the new role, or null when removed. */
  readonly #seats = new Map<string, Role | null>();
  /** Seats that must still be there when the change commits (an invitation's sender). */
  readonly #kept = new Set<string>();
  readonly #items: TxItems = {};
  readonly #events: AuditEvent[] = [];
  readonly #revocations: Revocation[] = [];
  #count: number;

  constructor(institution: Institution, ctx: ChangeContext) {
    this.#institution = institution;
    this.#ctx = ctx;
    this.#count = Object.keys(institution.members).length;
  }

  get institution(): Institution {
    return this.#institution;
  }

  /** The role `userId` holds with this change's steps taken, if any. */
  roleOf(userId: string): Role | undefined {
    return this.#seats.has(userId) ? (this.#seats.get(userId) ?? undefined) : memberRole(this.#institution, userId);
  }

  /** The members whose seats this change gives, changes or takes. */
  get members(): string[] {
    return [...this.#seats.keys()];
  }

  /** How many invitations the removals of this change revoke. */
  get revoked(): number {
    return this.#revocations.length;
  }

  /** The events the door recorded (`record`); the revocations carry their own. */
  get events(): readonly AuditEvent[] {
    return this.#events;
  }

  /** Records an event of the change, by its actor, now: the door's own (`administrator_removed`, `administrator_provisioned`, …). */
  record<T extends EventType>(type: T, details: EventDetails[T]): AuditEvent<T> {
    const e = auditEvent(this.#ctx.actor, type, details, {
      now: this.#ctx.now,
      owner: this.#ctx.owner,
      institution: this.#institution,
    });
    this.#events.push(e);
    return e;
  }

  /**
   * Gives `person` the role `role` through `source`:
   * - no seat yet: a new seat (refused at the limit), access record and marker;
   * - a seat already, through the directory: the role and the access become the directory's (`changeRole`);
   * - a seat already, through an invitation: the role when it differs (the door passes the stronger one), the
   *   access the invitation's; with the same role nothing changes but the marker, and the seat must still be
   *   there when the change commits.
   * An invitation's sender must hold a seat when the change commits. The owner is out of reach.
   */
  grant(person: Person, role: Role, source: Source): Step {
    const id = person.user_id;
    const current = this.roleOf(id);
    // An API key's invitation (docs/api-keys.md) does not hang on the key, which holds no seat.
    if (source.via === "invitation" && !isKeyActorId(source.inviter)) this.#kept.add(source.inviter);
    if (current === undefined) {
      if (id === this.#institution.super_admin_id) return OWNER;
      if (this.#count >= MAX_MEMBERS) return { kind: "institution_full" };
      const at = this.#ctx.now.toISOString();
      const invitation = source.via === "invitation" ? source.invitation : null;
      const member = { ...person, user_account_id: person.account_id, role, added_at: at, invitation_id: invitation };
      const { account_id: _own, ...stored } = member;
      this.#seat(id, role);
      this.#items[`access ${id}`] = putAccess(this.#institution, stored, originOf(source));
      this.#items[`marker ${id}`] = putMarker(this.#institution.id, id, person.email);
      return OK;
    }
    if (source.via === "directory") return this.changeRole(id, role, source);
    // SSO grants a seat to who has none; one held already (the owner's included) is never touched.
    if (source.via === "sso") return OK;
    this.#items[`marker ${id}`] = putMarker(this.#institution.id, id, person.email);
    if (role === current) {
      this.#kept.add(id);
      return OK;
    }
    if (id === this.#institution.super_admin_id) return OWNER;
    this.#seat(id, role);
    const set: Record<string, string> = source.via === "invitation" ? { invitation_id: source.invitation } : {};
    this.#items[`access ${id}`] = updateAccess(this.#institution.id, id, role, { set, remove: ["managed_by", "scim_connection"] });
    return OK;
  }

  /**
   * Gives the member `userId` the role `role` (the door has judged that it changes something). Through the
   * directory, the access becomes the directory's as well (`managed_by`, `scim_connection`: an access is the
   * directory's only with both). The owner is out of reach; a member gone since the read is judged again.
   */
  changeRole(userId: string, role: Role, source: Source = { via: "hand" }): Step {
    const current = this.roleOf(userId);
    if (current === undefined) return RETRY_STEP;
    if (userId === this.#institution.super_admin_id) return OWNER;
    this.#seat(userId, role);
    const set: Record<string, string> = source.via === "directory" ? { managed_by: "scim", scim_connection: source.connection } : {};
    this.#items[`access ${userId}`] = updateAccess(this.#institution.id, userId, role, { set });
    return OK;
  }

  /**
   * Takes `target`'s access away (its record as read, or its user id, and the record is read here): its seat,
   * access record and marker go, and every active invitation it sent is revoked (`invitation_revoked`, reason
   * `administrator_removed`). The invitations are read after the record, and the record goes only at the count of
   * sent invitations it was read with: one sent since makes the commit fail, and the door reads again. No seat: no
   * change. The owner is out of reach.
   */
  async remove(target: AccessRecord | string): Promise<Step> {
    const userId = typeof target === "string" ? target : target.user_id;
    if (userId === this.#institution.super_admin_id) return OWNER;
    if (this.roleOf(userId) === undefined) return OK;
    const inst = this.#institution;
    const record = typeof target === "string" ? await getAccess(userId, inst.id) : target;
    // A seat without its record: a change since the read; the version guard would refuse it anyway.
    if (!record) return RETRY_STEP;
    const { actor, now, owner } = this.#ctx;
    const sent = await activeInvitationsSentBy(inst.id, userId, now);
    this.#seat(userId, null);
    this.#items[`access ${userId}`] = deleteAccess(inst.id, record);
    this.#items[`marker ${userId}`] = deleteMarker(inst.id, record.email);
    const at = now.toISOString();
    for (const inv of sent) {
      const details = { invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email, reason: "administrator_removed" };
      this.#revocations.push({
        items: revocationItems(inv, { revokedBy: actor.id, reason: "administrator_removed", at }),
        event: auditEvent(actor, "invitation_revoked", details, { now, owner, institution: inst }),
      });
    }
    return OK;
  }

  /**
   * The change's items but its revocations (`commitMembership` places those): access records, markers, and the
   * institution: its seats at the version read, or, when no seat changes, a check that the seats the change
   * relies on are still there. For accept, which revokes nothing.
   */
  items(): TxItems {
    const out: TxItems = { ...this.#items };
    const names: Record<string, string> = { "#members": "members" };
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    const removes: string[] = [];
    let n = 0;
    for (const [userId, role] of this.#seats) {
      n++;
      names[`#u${n}`] = userId;
      if (role === null) removes.push(`#members.#u${n}`);
      else {
        sets.push(`#members.#u${n} = :r${n}`);
        values[`:r${n}`] = role;
      }
    }
    if (n > 0) {
      out.institution = institutionChange(this.#institution, {
        set: sets.join(", ") || undefined,
        remove: removes.join(", ") || undefined,
        names,
        values,
      });
    } else if (this.#kept.size > 0) {
      const kept = [...this.#kept].map((userId, i) => {
        names[`#k${i}`] = userId;
        return `attribute_exists(#members.#k${i})`;
      });
      out.institution = {
        ConditionCheck: {
          TableName: config.tables.main,
          Key: keys.institution(this.#institution.id),
          ConditionExpression: kept.join(" AND "),
          ExpressionAttributeNames: names,
        },
      };
    }
    return out;
  }

  /** The revocations of the change's removals, for `commitMembership`. */
  get revocations(): readonly Revocation[] {
    return this.#revocations;
  }

  #seat(userId: string, role: Role | null): void {
    const had = this.roleOf(userId);
    if (had === undefined && role !== null) this.#count++;
    if (had !== undefined && role === null) this.#count--;
    this.#seats.set(userId, role);
  }
}

/** What a door writes in the change's transaction besides the change: its own items (named) and events. */
export interface Alongside {
  readonly items?: TxItems;
  readonly events?: readonly AuditEvent[];
}

/**
 * Commits `change` with what the door writes `alongside` it, and every event, in one transaction. Revocations
 * that do not fit in it go first, in transactions of their own (acceptance checks that the sender still holds a
 * seat, so none of them could be used meanwhile). `too_large` when the change itself does not fit one
 * transaction (docs/security.md: a 4xx, never a 500); `retry` when anything it read has changed.
 */
export async function commitMembership(change: MembershipChange, alongside: Alongside = {}): Promise<Written<TooLarge>> {
  const items = [alongside.items ?? {}, change.items()];
  const events = [...(alongside.events ?? []), ...change.events];
  const revocations = change.revocations;
  if (!fitsWithEvents(events, ...items)) return { kind: "too_large" };
  const fits = (batch: readonly Revocation[], fixedEvents: readonly AuditEvent[], ...fixed: TxItems[]) =>
    fitsWithEvents([...fixedEvents, ...batch.map((r) => r.event)], ...fixed, ...batch.map((r) => r.items));
  // The last revocations, as many as fit, go with the change; those before them go first, in batches that each fit.
  let first = 0;
  while (first < revocations.length && !fits(revocations.slice(first), events, ...items)) first++;
  for (let i = 0; i < first; ) {
    let end = i + 1;
    while (end < first && fits(revocations.slice(i, end + 1), [])) end++;
    const batch = revocations.slice(i, end);
    const result = await commitWithEvents(
      batch.map((r) => r.event),
      ...batch.map((r) => r.items),
    );
    if (result.kind !== "ok") return lost(change, result);
    i = end;
  }
  const last = revocations.slice(first);
  const result = await commitWithEvents([...events, ...last.map((r) => r.event)], ...items, ...last.map((r) => r.items));
  return result.kind === "ok" ? result : lost(change, result);
}

/**
 * A change that lost a race reads again: said in the log, with what it lost to (the item whose condition failed,
 * such as `access <user>` when the member sent an invitation since the read, or `conflict`), so that a race
 * can be seen where it happens.
 */
function lost(change: MembershipChange, result: Exclude<TxResult, { kind: "ok" }>): { kind: "retry" } {
  logger.info("membership change lost a race; reading again", {
    institution_id: change.institution.id,
    members: change.members,
    lost_to: result.kind === "failed" ? result.item : "conflict",
  });
  return { kind: "retry" };
}
