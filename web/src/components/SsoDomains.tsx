/**
 * The institution's verified domains (docs/sso.md): the mail domains it proves it controls with a TXT record,
 * the only addresses its identity provider may speak for. The super admin adds one (and sees the record to
 * publish, with copy buttons), verifies it now, and removes it (confirmed); other administrators read the list.
 */
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import CopyToClipboard from "@cloudscape-design/components/copy-to-clipboard";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import SpaceBetween from "@cloudscape-design/components/space-between";
import StatusIndicator from "@cloudscape-design/components/status-indicator";
import Table from "@cloudscape-design/components/table";
import { useState } from "react";
import { apiPaths, client, type Domain, ok } from "../api";
import { formatDateTime } from "../format";
import { useShell } from "../shell";
import { IDENTITY_PROVIDER } from "../terms";
import { useSubmit } from "../useSubmit";
import { Dialog, DialogFooter, FormDialog, Refusal } from "./Dialog";
import { describe, ErrorNotice } from "./ErrorNotice";

export const DOMAINS_PATH = `${apiPaths.institutions}/{id}/domains` as const;

export interface DomainsProps {
  readonly institutionId: string;
  /** The institution's super admin: the only one who adds, verifies and removes. */
  readonly owner: boolean;
  readonly domains: readonly Domain[] | undefined;
  readonly loading: boolean;
  readonly error: unknown;
  readonly reload: () => void;
}

function State({ domain: d }: { domain: Domain }) {
  switch (d.state) {
    case "verified":
      return (
        <SpaceBetween size="xxxs">
          <StatusIndicator type="success">Verified</StatusIndicator>
          <Box variant="small" color="text-body-secondary">
            {formatDateTime(d.verified_at)}
          </Box>
        </SpaceBetween>
      );
    case "failed":
      return (
        <SpaceBetween size="xxxs">
          <StatusIndicator type="error">Failed</StatusIndicator>
          <Box variant="small" color="text-body-secondary">
            Not verified within 7 days: remove it and add it again.
          </Box>
        </SpaceBetween>
      );
    default:
      return (
        <SpaceBetween size="xxxs">
          <StatusIndicator type="pending">Pending</StatusIndicator>
          {d.last_error && (
            <Box variant="small" color="text-body-secondary">
              {d.last_error} (checked {formatDateTime(d.last_checked_at)})
            </Box>
          )}
        </SpaceBetween>
      );
  }
}

/** The TXT record to publish, each part with its copy button; only while it is still needed. */
function Record({ domain: d }: { domain: Domain }) {
  if (d.state !== "pending") return <Box color="text-body-secondary">—</Box>;
  const copy = (what: string, text: string) => (
    <CopyToClipboard
      variant="inline"
      textToCopy={text}
      copyButtonAriaLabel={`Copy the record ${what} for ${d.domain}`}
      copySuccessText={`Record ${what} copied`}
      copyErrorText="Could not copy: select it and copy it by hand"
    />
  );
  return (
    <SpaceBetween size="xxs">
      <Box variant="small">TXT record name</Box>
      {copy("name", d.verification.record_name)}
      <Box variant="small">Value</Box>
      {copy("value", d.verification.record_value)}
    </SpaceBetween>
  );
}

export function SsoDomains({ institutionId, owner, domains, loading, error, reload }: DomainsProps) {
  const { flash } = useShell();
  const params = { path: { id: institutionId } };
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState("");
  const adder = useSubmit<"domain">({ fields: "domain" });
  const [verifying, setVerifying] = useState<string>();
  const [removing, setRemoving] = useState<Domain>();
  const remover = useSubmit();

  const closeAdd = () => {
    setAdding(false);
    setName("");
    adder.reset();
  };
  const add = () =>
    adder.submit(async () => {
      const { domain } = ok(await client.POST(DOMAINS_PATH, { params, body: { domain: name } }));
      flash({ type: "success", content: `${domain.domain} added: publish its TXT record, then verify it` });
      closeAdd();
      reload();
    });

  const verify = async (d: Domain) => {
    setVerifying(d.id);
    try {
      const { domain } = ok(
        await client.POST(`${DOMAINS_PATH}/{domain_id}/verify`, { params: { path: { id: institutionId, domain_id: d.id } } }),
      );
      if (domain.state === "verified") flash({ type: "success", content: `${domain.domain} is verified` });
      else if (domain.state === "failed")
        flash({ type: "error", content: `${domain.domain} was not verified within 7 days: remove it and add it again` });
      else
        flash({
          type: "warning",
          header: `${domain.domain} is not verified yet`,
          content: `${domain.last_error ?? "The record was not found"}. DNS changes can take a while to show; try again later.`,
        });
    } catch (err) {
      const { header, text } = describe(err);
      flash({ type: "error", header, content: text });
    } finally {
      setVerifying(undefined);
      reload();
    }
  };

  const closeRemove = () => {
    setRemoving(undefined);
    remover.reset();
  };
  const remove = () =>
    remover.submit(async () => {
      if (!removing) return;
      ok(await client.DELETE(`${DOMAINS_PATH}/{domain_id}`, { params: { path: { id: institutionId, domain_id: removing.id } } }));
      flash({ type: "success", content: `${removing.domain} removed` });
      closeRemove();
      reload();
    });

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        data-testid="sso-domains"
        items={[...(domains ?? [])]}
        loading={loading && !domains}
        loadingText="Loading domains"
        trackBy="id"
        variant="embedded"
        wrapLines
        ariaLabels={{ tableLabel: "Verified domains" }}
        header={
          <Header
            variant="h3"
            counter={domains ? `(${domains.length})` : undefined}
            description={`The mail domains of your people's addresses. Your ${IDENTITY_PROVIDER} signs in only addresses on domains verified here: publish each one's TXT record in its DNS, then verify it.`}
            actions={owner && <Button onClick={() => setAdding(true)}>Add domain</Button>}
          >
            Domains
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            <b>No domains</b>
            <Box variant="p" color="inherit">
              {owner ? "Add the domain your people's e-mail addresses are on, like acme.edu." : "The institution's super admin adds them."}
            </Box>
          </Box>
        }
        columnDefinitions={[
          { id: "domain", header: "Domain", isRowHeader: true, cell: (d) => d.domain },
          { id: "state", header: "State", cell: (d) => <State domain={d} /> },
          { id: "record", header: "Record to publish", cell: (d) => <Record domain={d} /> },
          ...(owner
            ? [
                {
                  id: "actions",
                  header: "Actions",
                  cell: (d: Domain) => (
                    <SpaceBetween direction="horizontal" size="xs">
                      {d.state === "pending" && (
                        <Button
                          loading={verifying === d.id}
                          disabled={verifying !== undefined && verifying !== d.id}
                          ariaLabel={`Verify ${d.domain}`}
                          onClick={() => void verify(d)}
                        >
                          Verify
                        </Button>
                      )}
                      <Button ariaLabel={`Remove ${d.domain}`} onClick={() => setRemoving(d)}>
                        Remove
                      </Button>
                    </SpaceBetween>
                  ),
                },
              ]
            : []),
        ]}
      />
      <FormDialog
        visible={adding}
        header="Add domain"
        action="Add domain"
        busy={adder.busy}
        onClose={closeAdd}
        onSubmit={() => void add()}
        errorText={adder.error && `${adder.error.header}: ${adder.error.text}`}
      >
        <FormField
          label="Domain"
          description="The part after @ in your people's e-mail addresses. A subdomain is a domain of its own."
          constraintText="Like acme.edu. Not a consumer mail provider's (gmail.com) nor a public suffix (co.uk)."
          errorText={adder.fieldErrors.domain}
        >
          <Input value={name} onChange={({ detail }) => setName(detail.value)} placeholder="acme.edu" autoFocus />
        </FormField>
      </FormDialog>
      <Dialog
        visible={removing !== undefined}
        header="Remove domain?"
        onDismiss={closeRemove}
        footer={<DialogFooter action="Remove" busy={remover.busy} onCancel={closeRemove} onAction={() => void remove()} />}
      >
        <SpaceBetween size="s">
          <Box variant="p">
            Remove <strong>{removing?.domain}</strong>?{" "}
            {removing?.state === "verified"
              ? `People on it can no longer sign in through your ${IDENTITY_PROVIDER}, and another institution may verify it.`
              : "To verify it later, add it again: it gets a new record."}
          </Box>
          <Refusal error={remover.error} />
        </SpaceBetween>
      </Dialog>
    </SpaceBetween>
  );
}
