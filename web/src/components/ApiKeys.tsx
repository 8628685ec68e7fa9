/**
 * The institution's API keys (docs/api-keys.md), for its super admin: make one (a name, its
 * scopes as checkboxes, an expiry), see the key this once with a copy button, the list with each key's last use,
 * and revoke one (confirmed).
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Checkbox from "@cloudscape-design/components/checkbox";
import CopyToClipboard from "@cloudscape-design/components/copy-to-clipboard";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import Modal from "@cloudscape-design/components/modal";
import Select from "@cloudscape-design/components/select";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Table from "@cloudscape-design/components/table";
import { useState } from "react";
import { SCOPE_LABELS, SCOPES, type Scope } from "../../../shared/api-keys/scopes";
import { apiPaths, client, ok } from "../api";
import { formatDateTime } from "../format";
import { useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";
import { DialogFooter, FormDialog, Refusal } from "./Dialog";
import { ErrorNotice } from "./ErrorNotice";

const PATH = `${apiPaths.institutions}/{id}/api_keys` as const;
const DAY = 86_400_000;
/** Expiry choices, in days from now; a year is the longest a key may live. */
const EXPIRIES = [
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
  { value: "never", label: "Never" },
];

type Key = { id: string; name: string; scopes: Scope[]; key_preview: string; last_used_at: string | null; expires_at: string | null };

export function ApiKeys({ institutionId }: { institutionId: string }) {
  const { flash } = useShell();
  const params = { path: { id: institutionId } };
  const { data, error, loading, reload } = useApi(`${apiPaths.institutions}/${institutionId}/api_keys`, async (signal) =>
    ok(await client.GET(PATH, { params, signal })),
  );
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expiry, setExpiry] = useState(EXPIRIES[2]);
  const [issued, setIssued] = useState<{ name: string; key: string }>();
  const creating = useSubmit({ fields: { name: "Name", scopes: "Scopes", expires_at: "Expires at" } });

  const close = () => {
    setOpen(false);
    setName("");
    setScopes([]);
    setExpiry(EXPIRIES[2]);
    creating.reset();
  };
  const create = () =>
    creating.submit(async () => {
      const days = expiry?.value === "never" ? undefined : Number(expiry?.value ?? "365");
      const expires_at = days === undefined ? null : new Date(Date.now() + days * DAY - 60_000).toISOString();
      const res = ok(await client.POST(PATH, { params, body: { name, scopes, expires_at } }));
      setIssued({ name: res.api_key.name, key: res.key });
      flash({ type: "success", content: `API key ${res.api_key.name} created` });
      close();
      reload();
    });

  const [selected, setSelected] = useState<Key>();
  const [revoking, setRevoking] = useState<Key>();
  const revocation = useSubmit();
  const closeRevoke = () => {
    setRevoking(undefined);
    revocation.reset();
  };
  const revoke = () =>
    revocation.submit(async () => {
      if (!revoking) return;
      const { message } = ok(await client.DELETE(`${PATH}/{key_id}`, { params: { path: { id: institutionId, key_id: revoking.id } } }));
      flash({ type: "success", content: message });
      setSelected(undefined);
      closeRevoke();
      reload();
    });

  const toggle = (scope: Scope, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      {issued && (
        <Alert
          type="success"
          header="Copy the key now: it is shown this once"
          data-testid="api-key-issued"
          action={<Button onClick={() => setIssued(undefined)}>I have stored the key</Button>}
        >
          <SpaceBetween size="s">
            <Box variant="p">
              Give it to the system that calls the API as <Box variant="code">Authorization: Bearer &lt;key&gt;</Box>.{" "}
              <strong>You will not see the key again</strong>; if it is lost, revoke it and make another.
            </Box>
            <CopyToClipboard
              variant="inline"
              textToCopy={issued.key}
              copyButtonAriaLabel="Copy the key"
              copySuccessText="Key copied"
              copyErrorText="Could not copy: select it and copy it by hand"
            />
          </SpaceBetween>
        </Alert>
      )}
      <Table
        data-testid="api-keys-table"
        selectionType="single"
        selectedItems={selected ? [selected] : []}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems[0])}
        items={data?.api_keys ?? []}
        loading={loading && !data}
        loadingText="Loading API keys"
        trackBy="id"
        ariaLabels={{
          tableLabel: "API keys",
          selectionGroupLabel: "API key selection",
          itemSelectionLabel: (_, k) => `Select ${k.name}`,
          allItemsSelectionLabel: () => "Select all",
        }}
        header={
          <Header
            variant="h2"
            counter={data ? `(${data.api_keys.length})` : undefined}
            description="Credentials for your systems (an SIS, an LMS) to call the API for this institution alone, within their scopes."
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button disabled={!selected} disabledReason="Select a key to revoke." onClick={() => setRevoking(selected)}>
                  Revoke
                </Button>
                <Button onClick={() => setOpen(true)}>Create API key</Button>
              </SpaceBetween>
            }
          >
            API keys
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            <b>No API keys</b>
          </Box>
        }
        columnDefinitions={[
          { id: "name", header: "Name", isRowHeader: true, cell: (k) => k.name },
          { id: "key", header: "Key", cell: (k) => <Box variant="code">{k.key_preview}</Box> },
          { id: "scopes", header: "Scopes", cell: (k) => k.scopes.join(", ") },
          { id: "last_used_at", header: "Last used", cell: (k) => (k.last_used_at ? formatDateTime(k.last_used_at) : "Never") },
          { id: "expires_at", header: "Expires", cell: (k) => (k.expires_at ? formatDateTime(k.expires_at) : "Never") },
        ]}
      />
      <Modal
        visible={revoking !== undefined}
        onDismiss={closeRevoke}
        header="Revoke API key"
        closeAriaLabel="Close dialog"
        footer={<DialogFooter action="Revoke" busy={revocation.busy} onCancel={closeRevoke} onAction={() => void revoke()} />}
      >
        <SpaceBetween size="m">
          <Box variant="p">
            Revoke the key <strong>{revoking?.name}</strong>? It stops working within a minute. Invitations it sent stay until they are
            used, expire or are revoked.
          </Box>
          <Refusal error={revocation.error} />
        </SpaceBetween>
      </Modal>
      <FormDialog
        visible={open}
        header="Create API key"
        action="Create API key"
        busy={creating.busy}
        onClose={close}
        onSubmit={() => void create()}
        errorText={creating.error && `${creating.error.header}: ${creating.error.text}`}
      >
        <SpaceBetween size="m">
          <FormField
            label="Name"
            description="What the key is for, as the list and the audit trail name it."
            errorText={creating.fieldErrors.name}
          >
            <Input value={name} onChange={({ detail }) => setName(detail.value)} autoFocus />
          </FormField>
          <FormField
            label="Scopes"
            description="Everything the key may do. It invites cohort admins only."
            errorText={creating.fieldErrors.scopes}
          >
            <SpaceBetween size="xxs">
              {SCOPES.map((scope) => (
                <Checkbox key={scope} checked={scopes.includes(scope)} onChange={({ detail }) => toggle(scope, detail.checked)}>
                  {SCOPE_LABELS[scope]} <Box variant="code">{scope}</Box>
                </Checkbox>
              ))}
            </SpaceBetween>
          </FormField>
          <FormField label="Expires" errorText={creating.fieldErrors.expires_at}>
            <Select
              selectedOption={expiry ?? null}
              options={EXPIRIES}
              ariaLabel="Expires"
              onChange={({ detail }) => setExpiry(EXPIRIES.find((e) => e.value === detail.selectedOption.value))}
            />
          </FormField>
        </SpaceBetween>
      </FormDialog>
    </SpaceBetween>
  );
}
