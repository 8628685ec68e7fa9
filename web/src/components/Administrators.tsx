/**
 * Who holds access to an institution (docs/contract/administrators.md): its administrators by e-mail, paged with the API's
 * cursor, members of another account marked. Its super admin changes roles, removes administrators and
 * transfers the institution; anyone else may leave it. The removal dialog names the person and the
 * invitations they sent that will be revoked with them.
 */
import Badge from "@cloudscape-design/components/badge";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Pagination from "@cloudscape-design/components/pagination";
import Select, { type SelectProps } from "@cloudscape-design/components/select";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Table from "@cloudscape-design/components/table";
import { useState } from "react";
import { type Administrator, apiPaths, client, type Invitation, ok, type Role } from "../api";
import { formatShort, ROLE_LABELS, roleLabel } from "../format";
import { EmailText, useNarrow } from "../narrow";
import { query } from "../router";
import { useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";
import { Dialog, DialogFooter, Refusal } from "./Dialog";

/** Addresses, ids and role names never break inside themselves: on a phone the table scrolls sideways instead. */
const NOWRAP = { whiteSpace: "nowrap" } as const;

import { ErrorNotice } from "./ErrorNotice";

const PAGE_SIZE = 20;

const roleOptions: SelectProps.Option[] = (Object.keys(ROLE_LABELS) as Role[]).map((r) => ({ value: r, label: ROLE_LABELS[r] }));

export interface AdministratorsProps {
  readonly institution: { id: string; name: string; account_id: string };
  /** The caller is the institution's super admin. */
  readonly owner: boolean;
  /** The caller's user id (their row offers "Leave institution"). */
  readonly self: string | undefined;
  /** Something the page shows changed: the caller's role views (a transfer), or their access (leaving). */
  readonly onChanged: (change: "transferred" | "left") => void;
}

export function Administrators({ institution, owner, self, onChanged }: AdministratorsProps) {
  const { flash } = useShell();
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [pageIndex, setPageIndex] = useState(0);
  const [selected, setSelected] = useState<Administrator[]>([]);
  const [dialog, setDialog] = useState<{ kind: "role" | "remove" | "transfer"; admin: Administrator }>();

  const params = { limit: PAGE_SIZE, cursor: cursors[pageIndex] ?? undefined };
  const path = `${apiPaths.institutions}/${encodeURIComponent(institution.id)}/administrators`;
  const { data, error, loading, reload } = useApi(`${path}${query(params)}`, async (signal) =>
    ok(
      await client.GET(`${apiPaths.institutions}/{id}/administrators`, { params: { path: { id: institution.id }, query: params }, signal }),
    ),
  );
  const next = data?.meta.next_cursor ?? null;
  if (data && next && cursors.length === pageIndex + 1) setCursors([...cursors, next]);

  const refresh = () => {
    setSelected([]);
    if (pageIndex === 0) reload();
    else {
      setCursors([null]);
      setPageIndex(0);
    }
  };

  const narrow = useNarrow();
  const current = selected[0];
  const me = data?.administrators.find((a) => a.user_id === self);
  const managing = owner && current !== undefined && !current.is_super_admin;
  const why = !owner
    ? "Only the institution's super admin can do this."
    : !current
      ? "Select an administrator first."
      : "The access of the institution's super admin cannot change; transfer the institution first.";
  const transferWhy = !owner
    ? "Only the institution's super admin can transfer it."
    : !current
      ? "Select the administrator who takes over."
      : current.is_super_admin
        ? "You are already the institution's super admin."
        : current.account_id !== institution.account_id
          ? "The institution's new super admin must belong to its account."
          : current.role !== "cohort_super_admin"
            ? "The institution's new super admin must have the role Cohort super admin: change their role first."
            : undefined;

  const done = (message: string, change?: "transferred" | "left") => {
    setDialog(undefined);
    // Having left, the person lands on the institutions list: the message goes there.
    flash({ type: "success", content: message }, change === "left" ? { on: "/institutions" } : undefined);
    if (change) onChanged(change);
    else refresh();
  };

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        data-testid="administrators-table"
        // On a phone (390 px) the table scrolls sideways with the e-mail kept in view; each column keeps a
        // width its words fit in (wrapped lines break at spaces, never inside a word).
        stickyColumns={{ first: 1 }}
        items={data?.administrators ?? []}
        loading={loading && !data}
        loadingText="Loading administrators"
        trackBy="user_id"
        selectionType={owner ? "single" : undefined}
        selectedItems={selected}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
        ariaLabels={{
          tableLabel: "Administrators",
          selectionGroupLabel: "Administrator selection",
          itemSelectionLabel: (_, item) => `Select ${item.email}`,
          allItemsSelectionLabel: () => "Select all",
        }}
        header={
          <Header
            variant="h2"
            counter={data && !next && pageIndex === 0 ? `(${data.administrators.length})` : undefined}
            description="Everyone who holds access to this institution, by e-mail."
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                {!owner && (
                  <Button
                    disabled={!me}
                    disabledReason="Your row is not on this page."
                    onClick={() => me && setDialog({ kind: "remove", admin: me })}
                  >
                    Leave institution
                  </Button>
                )}
                {owner && (
                  <>
                    <Button
                      disabled={!managing}
                      disabledReason={why}
                      onClick={() => current && setDialog({ kind: "role", admin: current })}
                    >
                      Change role
                    </Button>
                    <Button
                      disabled={!managing}
                      disabledReason={why}
                      onClick={() => current && setDialog({ kind: "remove", admin: current })}
                    >
                      Remove
                    </Button>
                    <Button
                      disabled={transferWhy !== undefined}
                      disabledReason={transferWhy}
                      onClick={() => current && setDialog({ kind: "transfer", admin: current })}
                    >
                      Transfer
                    </Button>
                  </>
                )}
              </SpaceBetween>
            }
          >
            Administrators
          </Header>
        }
        pagination={
          <Pagination
            currentPageIndex={pageIndex + 1}
            pagesCount={cursors.length}
            openEnd={next !== null}
            onChange={({ detail }) => {
              setSelected([]);
              setPageIndex(detail.currentPageIndex - 1);
            }}
            ariaLabels={{ nextPageLabel: "Next page", previousPageLabel: "Previous page", pageLabel: (n) => `Page ${n}` }}
          />
        }
        empty={
          <Box textAlign="center" color="inherit">
            <b>No administrators</b>
          </Box>
        }
        wrapLines
        columnDefinitions={[
          narrow
            ? {
                // On a phone the first column, kept in view, holds who and their role: the rest scrolls.
                id: "email",
                header: "Administrator",
                isRowHeader: true,
                minWidth: 150,
                cell: (a) => (
                  <SpaceBetween size="xxxs">
                    <EmailText address={a.email || a.user_id} />
                    <Box fontSize="body-s" data-testid="administrator-role">
                      <span style={NOWRAP}>{roleLabel(a.role)}</span>
                    </Box>
                    <AdministratorBadges admin={a} self={self} />
                  </SpaceBetween>
                ),
              }
            : {
                id: "email",
                header: "E-mail",
                isRowHeader: true,
                minWidth: 160,
                cell: (a) => (
                  <SpaceBetween direction="horizontal" size="xs">
                    <EmailText address={a.email || a.user_id} nowrap />
                    {a.user_id === self && <Badge>You</Badge>}
                    {a.managed_by === "scim" && <Badge color="green">Directory</Badge>}
                  </SpaceBetween>
                ),
              },
          ...(narrow
            ? []
            : [
                {
                  id: "role",
                  header: "Role",
                  minWidth: 200,
                  cell: (a: Administrator) => (
                    <SpaceBetween direction="horizontal" size="xs">
                      <span style={NOWRAP}>{roleLabel(a.role)}</span>
                      {a.is_super_admin && <Badge color="blue">Institution's super admin</Badge>}
                    </SpaceBetween>
                  ),
                },
              ]),
          { id: "name", header: "Name", minWidth: 140, cell: (a) => a.name ?? "—" },
          {
            id: "account",
            header: "Account",
            minWidth: 180,
            cell: (a) =>
              a.account_id === institution.account_id ? (
                <span style={NOWRAP}>{a.account_id}</span>
              ) : (
                <SpaceBetween direction="horizontal" size="xs">
                  <span style={NOWRAP}>{a.account_id}</span>
                  <Badge color="severity-medium">Other account</Badge>
                </SpaceBetween>
              ),
          },
          { id: "since", header: "Since", minWidth: 160, cell: (a) => formatShort(a.added_at) },
        ]}
      />
      <RoleModal
        institutionId={institution.id}
        admin={dialog?.kind === "role" ? dialog.admin : undefined}
        onClose={() => setDialog(undefined)}
        onDone={(message) => done(message)}
      />
      <RemoveModal
        institution={institution}
        admin={dialog?.kind === "remove" ? dialog.admin : undefined}
        self={dialog?.admin.user_id === self}
        onClose={() => setDialog(undefined)}
        onDone={(message, left) => done(message, left ? "left" : undefined)}
      />
      <TransferModal
        institution={institution}
        admin={dialog?.kind === "transfer" ? dialog.admin : undefined}
        onClose={() => setDialog(undefined)}
        onDone={(message) => done(message, "transferred")}
      />
    </SpaceBetween>
  );
}

/** What the API answered instead, in words, inside the dialog. */
function RoleModal(props: {
  institutionId: string;
  admin: Administrator | undefined;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [role, setRole] = useState<SelectProps.Option>();
  const { busy, error, submit, reset } = useSubmit();
  const chosen = role ?? roleOptions.find((o) => o.value === props.admin?.role);
  const close = () => {
    setRole(undefined);
    reset();
    props.onClose();
  };
  const save = () =>
    submit(async () => {
      if (!props.admin || !chosen) return;
      const res = ok(
        await client.PATCH(`${apiPaths.institutions}/{id}/administrators/{user_id}`, {
          params: { path: { id: props.institutionId, user_id: props.admin.user_id } },
          body: { role: chosen.value as Role },
        }),
      );
      setRole(undefined);
      props.onDone(`${res.message}: ${res.administrator.email} is now ${roleLabel(res.administrator.role)}.`);
    });
  return (
    <Dialog
      visible={props.admin !== undefined}
      onDismiss={close}
      header="Change role"
      footer={<DialogFooter action="Save role" busy={busy} onCancel={close} onAction={() => void save()} />}
    >
      {props.admin && (
        <SpaceBetween size="m">
          <FormField label={`Role of ${props.admin?.email ?? ""}`}>
            <Select selectedOption={chosen ?? null} onChange={({ detail }) => setRole(detail.selectedOption)} options={roleOptions} />
          </FormField>
          <Refusal error={error} />
        </SpaceBetween>
      )}
    </Dialog>
  );
}

/** The active invitations `email` sent in the institution: every page of the active list, theirs only. */
async function invitationsSentBy(institutionId: string, email: string, signal: AbortSignal): Promise<Invitation[]> {
  const out: Invitation[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const res = ok(
      await client.GET(apiPaths.invitations, { params: { query: { institution_id: institutionId, limit: 200, cursor } }, signal }),
    );
    out.push(...res.invitations.filter((i) => i.created_by === email && i.status === "active"));
    cursor = res.meta.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return out;
}

function RemoveModal(props: {
  institution: { id: string; name: string };
  admin: Administrator | undefined;
  self: boolean;
  onClose: () => void;
  onDone: (message: string, left: boolean) => void;
}) {
  const { busy, error, submit, reset } = useSubmit();
  const { admin, institution } = props;
  const sent = useApi(admin ? `sent:${institution.id}:${admin.user_id}` : undefined, (signal) =>
    invitationsSentBy(institution.id, admin?.email ?? "", signal),
  );
  const close = () => {
    reset();
    props.onClose();
  };
  const remove = () =>
    submit(async () => {
      if (!admin) return;
      const res = ok(
        await client.DELETE(`${apiPaths.institutions}/{id}/administrators/{user_id}`, {
          params: { path: { id: institution.id, user_id: admin.user_id } },
        }),
      );
      const revoked = res.revoked_invitations === 1 ? "1 invitation revoked" : `${res.revoked_invitations} invitations revoked`;
      props.onDone(props.self ? `You left ${institution.name} (${revoked}).` : `${admin.email} removed (${revoked}).`, props.self);
    });
  const invitations = sent.data ?? [];
  return (
    <Dialog
      visible={admin !== undefined}
      onDismiss={close}
      header={props.self ? "Leave institution" : "Remove administrator"}
      footer={<DialogFooter action={props.self ? "Leave" : "Remove"} busy={busy} onCancel={close} onAction={() => void remove()} />}
    >
      {admin && (
        <SpaceBetween size="m">
          <Box variant="p">
            {props.self ? (
              <>
                Leave <strong>{institution.name}</strong>? You lose access at once; only a new invitation brings you back.
              </>
            ) : (
              <>
                Remove <strong>{admin?.name ? `${admin.name} (${admin.email})` : admin?.email}</strong> from{" "}
                <strong>{institution.name}</strong>? Their access ends at once; they can be invited again.
              </>
            )}
          </Box>
          {sent.loading ? (
            <Box variant="p" color="text-body-secondary">
              Looking up the invitations {props.self ? "you" : "they"} sent…
            </Box>
          ) : sent.error !== undefined ? (
            <Box variant="p" color="text-body-secondary">
              The active invitations {props.self ? "you" : "they"} sent will be revoked (they could not be listed here).
            </Box>
          ) : invitations.length === 0 ? (
            <Box variant="p">Nothing to revoke: {props.self ? "you have" : "they have"} sent no invitation that is still waiting.</Box>
          ) : (
            <SpaceBetween size="xxs">
              <Box variant="p">
                {invitations.length === 1 ? "This active invitation" : `These ${invitations.length} active invitations`}{" "}
                {props.self ? "you" : "they"} sent will be revoked:
              </Box>
              <ul data-testid="invitations-to-revoke" style={{ margin: 0 }}>
                {invitations.map((i) => (
                  <li key={i.id}>
                    {i.email} ({roleLabel(i.role)})
                  </li>
                ))}
              </ul>
            </SpaceBetween>
          )}
          <Refusal error={error} />
        </SpaceBetween>
      )}
    </Dialog>
  );
}

function TransferModal(props: {
  institution: { id: string; name: string };
  admin: Administrator | undefined;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { busy, error, submit, reset } = useSubmit();
  const close = () => {
    reset();
    props.onClose();
  };
  const transfer = () =>
    submit(async () => {
      if (!props.admin) return;
      const res = ok(
        await client.POST(`${apiPaths.institutions}/{id}/transfer`, {
          params: { path: { id: props.institution.id } },
          body: { user_id: props.admin.user_id },
        }),
      );
      props.onDone(res.message);
    });
  return (
    <Dialog
      visible={props.admin !== undefined}
      onDismiss={close}
      header="Transfer institution"
      footer={<DialogFooter action="Transfer" busy={busy} onCancel={close} onAction={() => void transfer()} />}
    >
      {props.admin && (
        <SpaceBetween size="m">
          <Box variant="p">
            Transfer <strong>{props.institution.name}</strong> to <strong>{props.admin?.email}</strong>? They become the institution's super
            admin. You keep access with the role Cohort super admin, but only they can then edit or delete it and manage its administrators.
          </Box>
          <Refusal error={error} />
        </SpaceBetween>
      )}
    </Dialog>
  );
}

/** What marks an administrator on a phone, under their e-mail and role: you, the directory's, the institution's super admin. */
function AdministratorBadges({ admin, self }: { admin: Administrator; self: string | undefined }) {
  const badges = [
    admin.is_super_admin && (
      <Badge key="owner" color="blue">
        Institution's super admin
      </Badge>
    ),
    admin.user_id === self && <Badge key="you">You</Badge>,
    admin.managed_by === "scim" && (
      <Badge key="scim" color="green">
        Directory
      </Badge>
    ),
  ].filter(Boolean);
  return badges.length > 0 ? (
    <SpaceBetween direction="horizontal" size="xxs">
      {badges}
    </SpaceBetween>
  ) : null;
}
