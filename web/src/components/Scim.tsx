/**
 * The institution's directory connection (SCIM, docs/scim.md), for its super admin: connect or rotate the
 * token (the base URL and the token shown this once, with copy buttons), map the directory's groups to roles,
 * when the directory last changed something, and disconnect (confirmed).
 */
import Alert from "@cloudscape-design/components/alert";
import AttributeEditor from "@cloudscape-design/components/attribute-editor";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Container from "@cloudscape-design/components/container";
import CopyToClipboard from "@cloudscape-design/components/copy-to-clipboard";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import KeyValuePairs from "@cloudscape-design/components/key-value-pairs";
import Select from "@cloudscape-design/components/select";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { useState } from "react";
import { ApiError, apiPaths, client, ok, type Role } from "../api";
import { formatDateTime, ROLE_LABELS } from "../format";
import { useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";
import { Dialog, DialogFooter, Refusal } from "./Dialog";
import { ErrorNotice } from "./ErrorNotice";

const PATH = `${apiPaths.institutions}/{id}/scim` as const;
const roleOptions = (Object.keys(ROLE_LABELS) as Role[]).map((r) => ({ value: r, label: ROLE_LABELS[r] }));

interface Issued {
  readonly base_url: string;
  readonly token: string;
}

interface Mapping {
  group: string;
  role: Role;
}

export function Scim({ institutionId }: { institutionId: string }) {
  const { flash } = useShell();
  const params = { path: { id: institutionId } };
  const { data, error, loading, reload } = useApi(`${apiPaths.institutions}/${institutionId}/scim`, async (signal) => {
    try {
      return ok(await client.GET(PATH, { params, signal })).scim;
    } catch (err) {
      // Not connected: the section offers to connect.
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  });
  const [issued, setIssued] = useState<Issued>();
  const [mappings, setMappings] = useState<Mapping[]>();
  const [confirming, setConfirming] = useState(false);
  const connecting = useSubmit();
  const saving = useSubmit();
  const disconnecting = useSubmit();

  const shown: Mapping[] = mappings ?? Object.entries(data?.role_mappings ?? {}).map(([group, role]) => ({ group, role }));

  const connect = () =>
    connecting.submit(async () => {
      const res = ok(await client.POST(PATH, { params }));
      setIssued({ base_url: res.scim.base_url, token: res.scim.token });
      flash({ type: "success", content: data ? "Token rotated: the old one no longer works" : "Directory connected" });
      reload();
    });
  const save = () =>
    saving.submit(async () => {
      const role_mappings = Object.fromEntries(shown.filter((m) => m.group.trim() !== "").map((m) => [m.group.trim(), m.role]));
      ok(await client.PATCH(PATH, { params, body: { role_mappings } }));
      setMappings(undefined);
      flash({ type: "success", content: "Role mappings saved" });
      reload();
    });
  const disconnect = () =>
    disconnecting.submit(async () => {
      ok(await client.DELETE(PATH, { params }));
      setConfirming(false);
      setIssued(undefined);
      flash({ type: "success", content: "Directory disconnected: its administrators stay, manageable by hand" });
      reload();
    });

  return (
    <Container
      data-testid="scim-section"
      header={
        <Header
          variant="h2"
          description="Let your directory (Entra ID, Okta) add and remove this institution's administrators with SCIM 2.0."
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              {data && <Button onClick={() => setConfirming(true)}>Disconnect</Button>}
              <Button
                variant={data ? "normal" : "primary"}
                loading={connecting.busy}
                onClick={connect}
                disabled={loading && data === undefined}
              >
                {data ? "Rotate token" : "Connect directory"}
              </Button>
            </SpaceBetween>
          }
        >
          Directory (SCIM)
        </Header>
      }
    >
      <SpaceBetween size="l">
        {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
        <Refusal error={connecting.error} />
        {issued && (
          <Alert
            type="success"
            header="Copy the token now: it is shown this once"
            data-testid="scim-token"
            action={<Button onClick={() => setIssued(undefined)}>I have stored the token</Button>}
          >
            <SpaceBetween size="s">
              <Box variant="p">
                Paste these into your directory's provisioning settings (Entra ID: Tenant URL and Secret token; Okta: SCIM connector base
                URL, and the token as an HTTP Header). <strong>You will not see the token again</strong>; if it is lost, rotate it.
              </Box>
              <KeyValuePairs
                columns={1}
                items={[
                  {
                    label: "Base URL",
                    value: (
                      <CopyToClipboard
                        variant="inline"
                        textToCopy={issued.base_url}
                        copyButtonAriaLabel="Copy the base URL"
                        copySuccessText="Base URL copied"
                        copyErrorText="Could not copy: select it and copy it by hand"
                      />
                    ),
                  },
                  {
                    label: "Token",
                    value: (
                      <CopyToClipboard
                        variant="inline"
                        textToCopy={issued.token}
                        copyButtonAriaLabel="Copy the token"
                        copySuccessText="Token copied"
                        copyErrorText="Could not copy: select it and copy it by hand"
                      />
                    ),
                  },
                ]}
              />
            </SpaceBetween>
          </Alert>
        )}
        {data === null && !issued && <Box color="text-body-secondary">No directory is connected. Administrators are invited by hand.</Box>}
        {data && (
          <SpaceBetween size="l">
            <KeyValuePairs
              columns={4}
              items={[
                { label: "Base URL", value: data.base_url },
                { label: "Token", value: data.token_preview },
                { label: "Connected", value: formatDateTime(data.created_at) },
                { label: "Last used", value: data.last_used_at ? formatDateTime(data.last_used_at) : "Never" },
              ]}
            />
            <SpaceBetween size="s">
              <Header
                variant="h3"
                description="A directory user gets the highest role its groups map to; Cohort admin when none maps."
                actions={
                  <Button loading={saving.busy} disabled={mappings === undefined} disabledReason="Nothing changed." onClick={save}>
                    Save mappings
                  </Button>
                }
              >
                Role mappings
              </Header>
              <Refusal error={saving.error} />
              <AttributeEditor<Mapping>
                items={shown}
                addButtonText="Add mapping"
                removeButtonText="Remove"
                empty="No group is mapped: every directory user is a Cohort admin."
                onAddButtonClick={() => setMappings([...shown, { group: "", role: "cohort_admin" }])}
                onRemoveButtonClick={({ detail }) => setMappings(shown.filter((_, i) => i !== detail.itemIndex))}
                definition={[
                  {
                    label: "Group (displayName)",
                    control: (item, index) => (
                      <Input
                        value={item.group}
                        ariaLabel={`Group name ${index + 1}`}
                        onChange={({ detail }) => setMappings(shown.map((m, i) => (i === index ? { ...m, group: detail.value } : m)))}
                      />
                    ),
                  },
                  {
                    label: "Role",
                    control: (item, index) => (
                      <Select
                        selectedOption={roleOptions.find((o) => o.value === item.role) ?? null}
                        options={roleOptions}
                        ariaLabel={`Role ${index + 1}`}
                        onChange={({ detail }) =>
                          setMappings(shown.map((m, i) => (i === index ? { ...m, role: detail.selectedOption.value as Role } : m)))
                        }
                      />
                    ),
                  },
                ]}
              />
            </SpaceBetween>
          </SpaceBetween>
        )}
      </SpaceBetween>
      <Dialog
        visible={confirming}
        header="Disconnect the directory?"
        onDismiss={() => setConfirming(false)}
        footer={<DialogFooter action="Disconnect" busy={disconnecting.busy} onCancel={() => setConfirming(false)} onAction={disconnect} />}
      >
        <SpaceBetween size="s">
          <Box variant="p">
            The directory's token stops working at once. The administrators it added stay, and can be changed or removed by hand again.
          </Box>
          <Refusal error={disconnecting.error} />
        </SpaceBetween>
      </Dialog>
    </Container>
  );
}
