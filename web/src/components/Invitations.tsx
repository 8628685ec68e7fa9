/**
 * An institution's invitations, active or used, newest first; those who manage it invite, resend and revoke.
 * Pages with the API's cursor (`meta.next_cursor`). A 429 says when to try again.
 */
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import ExpandableSection from "@cloudscape-design/components/expandable-section";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import Pagination from "@cloudscape-design/components/pagination";
import SegmentedControl from "@cloudscape-design/components/segmented-control";
import Select, { type SelectProps } from "@cloudscape-design/components/select";
import SpaceBetween from "@cloudscape-design/components/space-between";
import StatusIndicator, { type StatusIndicatorProps } from "@cloudscape-design/components/status-indicator";
import Table from "@cloudscape-design/components/table";
import { useState } from "react";
import { ApiError, apiPaths, client, type Invitation, type InvitationStatus, ok, type Role } from "../api";
import { formatShort, ROLE_LABELS, retryText, roleLabel } from "../format";
import { query } from "../router";
import { useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";
import { Dialog, DialogFooter, FormDialog, Refusal } from "./Dialog";
import { describe, ErrorNotice } from "./ErrorNotice";

const NOWRAP = { whiteSpace: "nowrap" } as const;

import { EmailText, useNarrow } from "../narrow";
import { invitationsBlocked } from "../terms";
import { ROLE_POWERS } from "./RolesHelp";

const PAGE_SIZE = 20;

const STATUS: Record<InvitationStatus, { type: StatusIndicatorProps.Type; text: string }> = {
  active: { type: "pending", text: "Active" },
  used: { type: "success", text: "Accepted" },
  revoked: { type: "stopped", text: "Revoked" },
  expired: { type: "warning", text: "Expired" },
};

const roleOptions: SelectProps.Option[] = (Object.keys(ROLE_LABELS) as Role[]).map((r) => ({ value: r, label: ROLE_LABELS[r] }));

export function Invitations({
  institutionId,
  role,
  hasStatus,
  owner,
}: {
  institutionId: string;
  /** The caller's role in the institution. */
  role: Role;
  /** The caller has the cohort-super-admin status. */
  hasStatus: boolean;
  /** The caller is the institution's super admin. */
  owner: boolean;
}) {
  // As the API decides it: the cohort-super-admin status and the role Cohort super admin on this institution.
  // A disabled button says which of the two is missing.
  const inviteBlocked = invitationsBlocked("Inviting", hasStatus, role);
  const changeBlocked = invitationsBlocked("Resending or revoking an invitation", hasStatus, role);
  const canManage = inviteBlocked === undefined;
  const { flash } = useShell();
  const narrow = useNarrow();
  const [used, setUsed] = useState(false);
  // cursors[i] opens page i (null: the first page).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [pageIndex, setPageIndex] = useState(0);
  const [selected, setSelected] = useState<Invitation[]>([]);
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<Invitation>();
  const [resending, setResending] = useState(false);

  const params = {
    institution_id: institutionId,
    show_used: used ? "true" : undefined,
    limit: PAGE_SIZE,
    cursor: cursors[pageIndex] ?? undefined,
  };
  const { data, error, loading, reload } = useApi(`${apiPaths.invitations}${query(params)}`, async (signal) =>
    ok(await client.GET(apiPaths.invitations, { params: { query: params }, signal })),
  );
  const next = data?.meta.next_cursor ?? null;
  if (data && next && cursors.length === pageIndex + 1) setCursors([...cursors, next]);

  const restart = (showUsed: boolean) => {
    setUsed(showUsed);
    setCursors([null]);
    setPageIndex(0);
    setSelected([]);
  };
  const refresh = () => {
    setSelected([]);
    if (pageIndex === 0) reload();
    else restart(used);
  };

  const current = selected[0];
  const actionable = canManage && current !== undefined && current.status === "active";
  const why = changeBlocked ? changeBlocked : current ? "Only active invitations can be changed." : "Select an invitation first.";

  const resend = async () => {
    if (!current) return;
    setResending(true);
    try {
      const res = ok(
        await client.POST(`${apiPaths.invitations}/{id}/resend`, {
          params: { path: { id: current.id }, query: { institution_id: institutionId } },
        }),
      );
      flash({ type: "success", content: res.message });
      refresh();
    } catch (err) {
      const d = describe(err);
      flash({ type: "error", header: d.header, content: d.text });
    } finally {
      setResending(false);
    }
  };

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        data-testid="invitations-table"
        items={data?.invitations ?? []}
        loading={loading && !data}
        loadingText="Loading invitations"
        trackBy="id"
        selectionType={canManage ? "single" : undefined}
        selectedItems={selected}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
        ariaLabels={{
          tableLabel: "Invitations",
          selectionGroupLabel: "Invitation selection",
          itemSelectionLabel: (_, item) => `Select the invitation of ${item.email}`,
          allItemsSelectionLabel: () => "Select all",
        }}
        header={
          <Header
            variant="h2"
            counter={data && !data.meta.next_cursor && pageIndex === 0 ? `(${data.invitations.length})` : undefined}
            description={used ? "Administrators who joined by invitation, and when." : "Invitations waiting to be accepted."}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button disabled={!actionable} disabledReason={why} loading={resending} onClick={() => void resend()}>
                  Resend
                </Button>
                <Button disabled={!actionable} disabledReason={why} onClick={() => setRevoking(current)}>
                  Revoke
                </Button>
                <Button variant="primary" disabled={!canManage} disabledReason={inviteBlocked} onClick={() => setInviting(true)}>
                  Invite administrator
                </Button>
              </SpaceBetween>
            }
          >
            Invitations
          </Header>
        }
        filter={
          <SegmentedControl
            label="Show invitations"
            selectedId={used ? "used" : "active"}
            onChange={({ detail }) => restart(detail.selectedId === "used")}
            options={[
              { id: "active", text: "Active" },
              { id: "used", text: "Accepted" },
            ]}
          />
        }
        pagination={
          data?.meta ? (
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
          ) : undefined
        }
        empty={
          <Box textAlign="center" color="inherit">
            <b>{used ? "No accepted invitations" : "No active invitations"}</b>
          </Box>
        }
        wrapLines
        // On a phone the first column, kept in view, holds the address and the role; the rest scrolls sideways.
        stickyColumns={narrow ? { first: 1 } : undefined}
        columnDefinitions={[
          // Addresses and role names never break inside themselves (an address may break after its @ or before a dot).
          ...(narrow
            ? [
                {
                  id: "email",
                  header: "Invitation",
                  isRowHeader: true,
                  minWidth: 150,
                  cell: (inv: Invitation) => (
                    <SpaceBetween size="xxxs">
                      <EmailText address={inv.email} />
                      <Box fontSize="body-s" data-testid="invitation-role">
                        <span style={NOWRAP}>{roleLabel(inv.role)}</span>
                      </Box>
                    </SpaceBetween>
                  ),
                },
              ]
            : [
                {
                  id: "email",
                  header: "E-mail",
                  isRowHeader: true,
                  cell: (inv: Invitation) => <EmailText address={inv.email} nowrap />,
                },
                { id: "role", header: "Role", cell: (inv: Invitation) => <span style={NOWRAP}>{roleLabel(inv.role)}</span> },
              ]),
          {
            id: "status",
            header: "Status",
            minWidth: 120,
            cell: (inv) => {
              const s = STATUS[inv.status];
              return (
                <StatusIndicator type={s.type} wrapText={false}>
                  {s.text}
                </StatusIndicator>
              );
            },
          },
          // Active ones say when they lapse, accepted ones when they were accepted.
          used
            ? { id: "used_at", header: "Accepted", minWidth: 160, cell: (inv: Invitation) => formatShort(inv.used_at) }
            : { id: "expires_at", header: "Expires", minWidth: 160, cell: (inv: Invitation) => formatShort(inv.expires_at) },
          { id: "sent_at", header: "Sent", minWidth: 160, cell: (inv) => formatShort(inv.sent_at) },
          { id: "created_by", header: "Invited by", cell: (inv) => <EmailText address={inv.created_by} nowrap /> },
          {
            id: "token",
            header: "Token",
            cell: (inv) => (
              <span style={NOWRAP}>
                <Box variant="code">{inv.token_preview}</Box>
              </span>
            ),
          },
        ]}
      />
      <InviteModal
        visible={inviting}
        institutionId={institutionId}
        owner={owner}
        onClose={() => setInviting(false)}
        onSent={(message) => {
          setInviting(false);
          flash({ type: "success", content: message });
          if (used) restart(false);
          else refresh();
        }}
      />
      <RevokeModal
        invitation={revoking}
        institutionId={institutionId}
        onClose={() => setRevoking(undefined)}
        onRevoked={(message) => {
          setRevoking(undefined);
          flash({ type: "success", content: message });
          refresh();
        }}
      />
    </SpaceBetween>
  );
}

function InviteModal(props: {
  visible: boolean;
  institutionId: string;
  owner: boolean;
  onClose: () => void;
  onSent: (message: string) => void;
}) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<SelectProps.Option>(roleOptions[1] as SelectProps.Option);
  const { busy, fieldErrors, error, submit, reset } = useSubmit({
    // Every invitation validation message is about the e-mail (invalid, already a member, institution full).
    fields: "email",
    explain: (err) =>
      err instanceof ApiError && err.status === 429
        ? { header: "Too many invitations", text: `${err.message}. ${retryText(err.retryAt)}` }
        : describe(err),
  });

  const close = () => {
    setEmail("");
    reset();
    props.onClose();
  };
  const send = () =>
    submit(async () => {
      const res = ok(
        await client.POST(apiPaths.invitations, {
          body: { institution_id: props.institutionId, email, role: role.value as Role },
        }),
      );
      setEmail("");
      props.onSent(res.message);
    });

  return (
    <FormDialog
      visible={props.visible}
      header="Invite an administrator"
      action="Send invitation"
      busy={busy}
      onClose={close}
      onSubmit={() => void send()}
    >
      <SpaceBetween size="m">
        <Box variant="p">The invitation is e-mailed with a link that is valid for 7 days.</Box>
        <FormField label="E-mail address" errorText={fieldErrors.email}>
          <Input type="email" inputMode="email" value={email} onChange={({ detail }) => setEmail(detail.value)} />
        </FormField>
        <FormField
          label="Role"
          description={
            props.owner ? undefined : `Only the institution's super admin can invite with the role ${ROLE_LABELS.cohort_super_admin}.`
          }
          constraintText={ROLE_POWERS[role.value as Role]}
        >
          <Select selectedOption={role} onChange={({ detail }) => setRole(detail.selectedOption)} options={roleOptions} />
        </FormField>
        <ExpandableSection headerText="What each role may do">
          <SpaceBetween size="xs">
            {(Object.keys(ROLE_POWERS) as Role[]).map((r) => (
              <Box key={r} variant="p">
                <strong>{ROLE_LABELS[r]}:</strong> {ROLE_POWERS[r]}
              </Box>
            ))}
            <Box variant="small">
              Neither role makes someone the institution's super admin (only a transfer does) or gives the cohort-super-admin status (only
              an operator grants it).
            </Box>
          </SpaceBetween>
        </ExpandableSection>
        <Refusal error={error} />
      </SpaceBetween>
    </FormDialog>
  );
}

function RevokeModal(props: {
  invitation: Invitation | undefined;
  institutionId: string;
  onClose: () => void;
  onRevoked: (message: string) => void;
}) {
  const { busy, error, submit, reset } = useSubmit();
  const close = () => {
    reset();
    props.onClose();
  };
  const revoke = () =>
    submit(async () => {
      if (!props.invitation) return;
      const res = ok(
        await client.DELETE(`${apiPaths.invitations}/{id}`, {
          params: { path: { id: props.invitation.id }, query: { institution_id: props.institutionId } },
        }),
      );
      props.onRevoked(res.message);
    });
  return (
    <Dialog
      visible={props.invitation !== undefined}
      onDismiss={close}
      header="Revoke invitation"
      footer={<DialogFooter action="Revoke" busy={busy} onCancel={close} onAction={() => void revoke()} />}
    >
      <SpaceBetween size="m">
        <Box variant="p">
          Revoke the invitation of <strong>{props.invitation?.email}</strong>? Its link stops working at once; the revocation is recorded in
          the security events.
        </Box>
        <Refusal error={error} />
      </SpaceBetween>
    </Dialog>
  );
}
