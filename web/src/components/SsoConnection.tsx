/**
 * The institution's identity provider (docs/sso.md), for its super admin: connect it (SAML 2.0 from a metadata
 * URL or pasted XML, or OpenID Connect with an issuer, a client ID and its secret), the values its administrator
 * pastes there (copy buttons), change it, its sign-in settings (attribute mapping, role mappings, access on first
 * sign-in, require single sign-on) and disconnect (confirmed). The client secret is write-only: sent, never shown.
 */
import Alert from "@cloudscape-design/components/alert";
import AttributeEditor from "@cloudscape-design/components/attribute-editor";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import ColumnLayout from "@cloudscape-design/components/column-layout";
import CopyToClipboard from "@cloudscape-design/components/copy-to-clipboard";
import Form from "@cloudscape-design/components/form";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import KeyValuePairs from "@cloudscape-design/components/key-value-pairs";
import RadioGroup from "@cloudscape-design/components/radio-group";
import Select from "@cloudscape-design/components/select";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Textarea from "@cloudscape-design/components/textarea";
import Toggle from "@cloudscape-design/components/toggle";
import { type ReactNode, useState } from "react";
import { apiPaths, type SsoConnection as Connection, client, ok, type Role } from "../api";
import { getConfig } from "../config";
import { formatDateTime, ROLE_LABELS } from "../format";
import { useShell } from "../shell";
import { continueWith, IDENTITY_PROVIDER, OWNER_KEEPS_PASSWORD } from "../terms";
import { useSubmit } from "../useSubmit";
import { Dialog, DialogFooter, FormDialog, Refusal } from "./Dialog";

export const SSO_PATH = `${apiPaths.institutions}/{id}/sso` as const;
const roleOptions = (Object.keys(ROLE_LABELS) as Role[]).map((r) => ({ value: r, label: ROLE_LABELS[r] }));

type Kind = Connection["type"];
const KIND_LABELS: Record<Kind, string> = { saml: "SAML 2.0", oidc: "OpenID Connect" };

/** A copyable value, as the IdP's administrator pastes it. */
function Copy({ text, what }: { text: string; what: string }) {
  return (
    <CopyToClipboard
      variant="inline"
      textToCopy={text}
      copyButtonAriaLabel={`Copy the ${what}`}
      copySuccessText={`${what[0]?.toUpperCase()}${what.slice(1)} copied`}
      copyErrorText="Could not copy: select it and copy it by hand"
    />
  );
}

/** What the IdP's administrator pastes there: the API's `sp`, or before connecting, the same from the console's configuration. */
function ValuesToPaste({ kind, sp }: { kind: Kind; sp?: Connection["sp"] }) {
  const config = getConfig();
  const values =
    sp ??
    (kind === "saml"
      ? { entity_id: `urn:amazon:cognito:sp:${config.userPoolId}`, acs_url: `${config.cognitoDomain}/saml2/idpresponse` }
      : { redirect_uri: `${config.cognitoDomain}/oauth2/idpresponse` });
  return (
    <KeyValuePairs
      columns={1}
      items={
        "redirect_uri" in values
          ? [{ label: "Redirect URI (sign-in redirect URI)", value: <Copy text={values.redirect_uri} what="redirect URI" /> }]
          : [
              { label: "Entity ID (Identifier, audience)", value: <Copy text={values.entity_id} what="entity ID" /> },
              { label: "ACS URL (Reply URL, single sign-on URL)", value: <Copy text={values.acs_url} what="ACS URL" /> },
            ]
      }
    />
  );
}

// --- connecting, or changing, the identity provider ---------------------------------------------------

type IdpField = "metadata_url" | "metadata_xml" | "issuer" | "client_id" | "client_secret";

/** The API's 422 messages start with these (shared/sso/schema.ts, fetch.ts): each lands at its field. */
const IDP_LABELS: Record<IdpField, string> = {
  metadata_url: "Metadata url",
  metadata_xml: "Metadata xml",
  issuer: "Issuer",
  client_id: "Client id",
  client_secret: "Client secret",
};

interface IdpDraft {
  kind: Kind;
  source: "url" | "xml";
  metadataUrl: string;
  metadataXml: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

function draftOf(c: Connection | null): IdpDraft {
  const idp = c?.idp;
  return {
    kind: c?.type ?? "saml",
    source: idp && "metadata_url" in idp && idp.metadata_url === null ? "xml" : "url",
    metadataUrl: idp && "metadata_url" in idp ? (idp.metadata_url ?? "") : "",
    metadataXml: "",
    issuer: idp && "issuer" in idp ? idp.issuer : "",
    clientId: idp && "client_id" in idp ? idp.client_id : "",
    clientSecret: "",
  };
}

/** The dialog that connects the identity provider, or (with `current`) changes it: its document, or its secret. */
function IdpDialog({
  institutionId,
  current,
  visible,
  onClose,
  onSaved,
}: {
  institutionId: string;
  current: Connection | null;
  visible: boolean;
  onClose: () => void;
  onSaved: (c: Connection) => void;
}) {
  const [draft, setDraft] = useState<IdpDraft>(() => draftOf(current));
  const set = (change: Partial<IdpDraft>) => setDraft((d) => ({ ...d, ...change }));
  const saving = useSubmit<IdpField>({
    fields: IDP_LABELS,
    // What the metadata or the discovery document lacks is about the field it came from.
    route: (message) => {
      if (/^metadata\b|metadata_url or metadata_xml/i.test(message)) return draft.source === "url" ? "metadata_url" : "metadata_xml";
      if (/^issuer's\b/i.test(message)) return "issuer";
      if (/client_secret/.test(message)) return "client_secret";
      return undefined;
    },
  });
  const close = () => {
    setDraft(draftOf(current));
    saving.reset();
    onClose();
  };
  const changing = current !== null;

  const body = () => {
    if (draft.kind === "saml") {
      const source = draft.source === "url" ? { metadata_url: draft.metadataUrl } : { metadata_xml: draft.metadataXml };
      return changing ? source : { type: "saml" as const, ...source };
    }
    if (!changing) return { type: "oidc" as const, issuer: draft.issuer, client_id: draft.clientId, client_secret: draft.clientSecret };
    // Only what changed: a new issuer or client ID needs the secret again (the API says so at the field).
    const idp = current.idp;
    return {
      ...("issuer" in idp && draft.issuer !== idp.issuer && { issuer: draft.issuer }),
      ...("client_id" in idp && draft.clientId !== idp.client_id && { client_id: draft.clientId }),
      ...(draft.clientSecret !== "" && { client_secret: draft.clientSecret }),
    };
  };
  const save = () =>
    saving.submit(async () => {
      const params = { path: { id: institutionId } };
      const res = changing
        ? ok(await client.PATCH(SSO_PATH, { params, body: body() }))
        : ok(await client.POST(SSO_PATH, { params, body: body() as { type: Kind } }));
      setDraft((d) => ({ ...d, clientSecret: "", metadataXml: "" }));
      onSaved(res.sso);
    });

  return (
    <FormDialog
      visible={visible}
      header={changing ? "Change identity provider" : "Connect identity provider"}
      action={changing ? "Save" : "Connect"}
      busy={saving.busy}
      onClose={close}
      onSubmit={() => void save()}
      errorText={saving.error && `${saving.error.header}: ${saving.error.text}`}
    >
      <SpaceBetween size="m">
        {!changing && (
          <FormField label="Protocol" description={`What your ${IDENTITY_PROVIDER} speaks: Entra ID, Okta and Shibboleth offer SAML 2.0.`}>
            <RadioGroup
              value={draft.kind}
              onChange={({ detail }) => set({ kind: detail.value as Kind })}
              items={[
                { value: "saml", label: KIND_LABELS.saml },
                { value: "oidc", label: KIND_LABELS.oidc },
              ]}
              ariaLabel="Protocol"
            />
          </FormField>
        )}
        {draft.kind === "saml" ? (
          <>
            <FormField label="Metadata" description="Your identity provider publishes its metadata at a URL; or paste the XML file.">
              <RadioGroup
                value={draft.source}
                onChange={({ detail }) => set({ source: detail.value as "url" | "xml" })}
                items={[
                  { value: "url", label: "From a URL" },
                  { value: "xml", label: "Paste the XML" },
                ]}
                ariaLabel="Metadata source"
              />
            </FormField>
            {draft.source === "url" ? (
              <FormField
                label="Metadata URL"
                constraintText="https, on a public host. Read and checked now."
                errorText={saving.fieldErrors.metadata_url}
              >
                <Input
                  type="url"
                  value={draft.metadataUrl}
                  onChange={({ detail }) => set({ metadataUrl: detail.value })}
                  placeholder="https://login.example.edu/metadata.xml"
                />
              </FormField>
            ) : (
              <FormField
                label="Metadata XML"
                constraintText="The EntityDescriptor, at most 1 MiB."
                errorText={saving.fieldErrors.metadata_xml}
              >
                <Textarea
                  value={draft.metadataXml}
                  onChange={({ detail }) => set({ metadataXml: detail.value })}
                  rows={8}
                  spellcheck={false}
                  placeholder="<md:EntityDescriptor …>"
                />
              </FormField>
            )}
          </>
        ) : (
          <>
            <FormField
              label="Issuer"
              constraintText="Exactly as its discovery document names it; https."
              errorText={saving.fieldErrors.issuer}
            >
              <Input
                type="url"
                value={draft.issuer}
                onChange={({ detail }) => set({ issuer: detail.value })}
                placeholder="https://acme.okta.com"
              />
            </FormField>
            <FormField label="Client ID" errorText={saving.fieldErrors.client_id}>
              <Input value={draft.clientId} onChange={({ detail }) => set({ clientId: detail.value })} />
            </FormField>
            <FormField
              label="Client secret"
              constraintText={
                changing
                  ? "Leave empty to keep the current one. Needed again with a new issuer or client ID. Never shown back."
                  : "Sent to the user pool and kept nowhere else. Never shown back."
              }
              errorText={saving.fieldErrors.client_secret}
            >
              <Input
                type="password"
                autoComplete="new-password"
                value={draft.clientSecret}
                onChange={({ detail }) => set({ clientSecret: detail.value })}
              />
            </FormField>
          </>
        )}
        {!changing && (
          <Alert type="info" header={`Your ${IDENTITY_PROVIDER}'s administrator registers these`}>
            <ValuesToPaste kind={draft.kind} />
          </Alert>
        )}
      </SpaceBetween>
    </FormDialog>
  );
}

// --- the sign-in settings -----------------------------------------------------------------------------

interface Mapping {
  group: string;
  role: Role;
}

interface Settings {
  email: string;
  name: string;
  groups: string;
  mappings: Mapping[];
  jit: boolean;
  defaultRole: Role;
  requireSso: boolean;
}

type SettingsField = "email" | "name" | "groups" | "mappings" | "jit" | "requireSso";

const SETTINGS_LABELS: Record<SettingsField, string> = {
  email: "Attribute mapping email",
  name: "Attribute mapping name",
  groups: "Attribute mapping groups",
  mappings: "Role mappings",
  jit: "Jit",
  requireSso: "Require sso",
};

const settingsOf = (c: Connection): Settings => ({
  email: c.attribute_mapping.email,
  name: c.attribute_mapping.name,
  groups: c.attribute_mapping.groups,
  mappings: Object.entries(c.role_mappings).map(([group, role]) => ({ group, role })),
  jit: c.jit.enabled,
  defaultRole: c.jit.default_role,
  requireSso: c.require_sso,
});

function SettingsForm({ institutionId, connection, onSaved }: { institutionId: string; connection: Connection; onSaved: () => void }) {
  const { flash } = useShell();
  const [draft, setDraft] = useState<Settings>();
  const shown = draft ?? settingsOf(connection);
  const set = (change: Partial<Settings>) => setDraft({ ...shown, ...change });
  const saving = useSubmit<SettingsField>({
    fields: SETTINGS_LABELS,
    route: (message) => (/^group names\b/i.test(message) ? "mappings" : undefined),
  });
  const save = () =>
    saving.submit(async () => {
      // Group names are data (`__proto__` included): the object is built from entries, never by assignment.
      const role_mappings = Object.fromEntries(shown.mappings.filter((m) => m.group.trim() !== "").map((m) => [m.group.trim(), m.role]));
      ok(
        await client.PATCH(SSO_PATH, {
          params: { path: { id: institutionId } },
          body: {
            attribute_mapping: { email: shown.email, name: shown.name, groups: shown.groups },
            role_mappings,
            jit: { enabled: shown.jit, default_role: shown.defaultRole },
            require_sso: shown.requireSso,
          },
        }),
      );
      setDraft(undefined);
      flash({ type: "success", content: "Single sign-on settings saved" });
      onSaved();
    });
  const mapping = (i: number, change: Partial<Mapping>) =>
    set({ mappings: shown.mappings.map((m, j) => (j === i ? { ...m, ...change } : m)) });

  const attribute = (field: "email" | "name" | "groups", label: string, description: string) => (
    <FormField label={label} description={description} errorText={saving.fieldErrors[field]}>
      <Input value={shown[field]} onChange={({ detail }) => set({ [field]: detail.value })} spellcheck={false} />
    </FormField>
  );

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      noValidate
    >
      <Form
        data-testid="sso-settings"
        errorText={saving.error && `${saving.error.header}: ${saving.error.text}`}
        errorIconAriaLabel="Error"
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button
              variant="link"
              formAction="none"
              disabled={draft === undefined}
              onClick={() => {
                setDraft(undefined);
                saving.reset();
              }}
            >
              Discard changes
            </Button>
            <Button
              variant="primary"
              formAction="submit"
              loading={saving.busy}
              disabled={draft === undefined}
              disabledReason="Nothing changed."
            >
              Save settings
            </Button>
          </SpaceBetween>
        }
        header={
          <Header variant="h3" description="How a person signing in through your identity provider is known, and what they get.">
            Sign-in settings
          </Header>
        }
      >
        <SpaceBetween size="l">
          <ColumnLayout columns={3} minColumnWidth={200}>
            {attribute("email", "E-mail attribute", "Must be an address on a verified domain.")}
            {attribute("name", "Name attribute", "The person's display name.")}
            {attribute("groups", "Groups attribute", "The groups the role mappings read.")}
          </ColumnLayout>
          <FormField
            label="Role mappings"
            description="A person gets the highest role their groups map to; the default role below when none maps."
            errorText={saving.fieldErrors.mappings}
            stretch
          >
            <AttributeEditor<Mapping>
              items={shown.mappings}
              addButtonText="Add mapping"
              removeButtonText="Remove"
              empty="No group is mapped."
              onAddButtonClick={() => set({ mappings: [...shown.mappings, { group: "", role: "cohort_admin" }] })}
              onRemoveButtonClick={({ detail }) => set({ mappings: shown.mappings.filter((_, i) => i !== detail.itemIndex) })}
              definition={[
                {
                  label: "Group",
                  control: (item, index) => (
                    <Input
                      value={item.group}
                      ariaLabel={`Group ${index + 1}`}
                      onChange={({ detail }) => mapping(index, { group: detail.value })}
                    />
                  ),
                },
                {
                  label: "Role",
                  control: (item, index) => (
                    <Select
                      selectedOption={roleOptions.find((o) => o.value === item.role) ?? null}
                      options={roleOptions}
                      ariaLabel={`Role for group ${index + 1}`}
                      onChange={({ detail }) => mapping(index, { role: detail.selectedOption.value as Role })}
                    />
                  ),
                },
              ]}
            />
          </FormField>
          <FormField
            label="Access on first sign-in"
            description="A person on your verified domains without access becomes an administrator of this institution when they first sign in, within its seat limit. Nobody's existing role changes."
            errorText={saving.fieldErrors.jit}
          >
            <SpaceBetween size="s">
              <Toggle checked={shown.jit} onChange={({ detail }) => set({ jit: detail.checked })}>
                Give access on first sign-in
              </Toggle>
              <FormField label="Default role" description="When none of the person's groups is mapped.">
                <Select
                  selectedOption={roleOptions.find((o) => o.value === shown.defaultRole) ?? null}
                  options={roleOptions}
                  disabled={!shown.jit}
                  onChange={({ detail }) => set({ defaultRole: detail.selectedOption.value as Role })}
                />
              </FormField>
            </SpaceBetween>
          </FormField>
          <FormField
            label="Require single sign-on"
            description={`People on your verified domains sign in only through your ${IDENTITY_PROVIDER}, with “${continueWith("…")}”: not with a password, and an invitation cannot create a password account for them.`}
            errorText={saving.fieldErrors.requireSso}
          >
            <SpaceBetween size="s">
              <Toggle checked={shown.requireSso} onChange={({ detail }) => set({ requireSso: detail.checked })}>
                Require single sign-on
              </Toggle>
              <Alert type="info" data-testid="owner-keeps-password">
                {OWNER_KEEPS_PASSWORD}
              </Alert>
            </SpaceBetween>
          </FormField>
        </SpaceBetween>
      </Form>
    </form>
  );
}

// --- the section -----------------------------------------------------------------------------------------

export function SsoConnection({
  institutionId,
  connection,
  verifiedDomains,
  reload,
}: {
  institutionId: string;
  /** null: not connected; undefined: loading. */
  connection: Connection | null | undefined;
  verifiedDomains: number;
  reload: () => void;
}) {
  const { flash } = useShell();
  const [editing, setEditing] = useState<"connect" | "change">();
  const [confirming, setConfirming] = useState(false);
  const disconnecting = useSubmit();

  const disconnect = () =>
    disconnecting.submit(async () => {
      ok(await client.DELETE(SSO_PATH, { params: { path: { id: institutionId } } }));
      setConfirming(false);
      flash({ type: "success", content: "Single sign-on disconnected" });
      reload();
    });

  let body: ReactNode = null;
  if (connection === null) {
    body = (
      <Box color="text-body-secondary">
        No {IDENTITY_PROVIDER} is connected. Connect yours (Entra ID, Okta, Google Workspace, Shibboleth) so that people on your verified
        domains sign in with their institution's account.
      </Box>
    );
  } else if (connection) {
    const idp = connection.idp;
    body = (
      <SpaceBetween size="l">
        <KeyValuePairs
          columns={3}
          items={[
            { label: "Protocol", value: KIND_LABELS[connection.type] },
            {
              label: "entity_id" in idp ? "Identity provider (entity ID)" : "Issuer",
              value: "entity_id" in idp ? idp.entity_id : idp.issuer,
            },
            "metadata_url" in idp
              ? { label: "Metadata", value: idp.metadata_url ?? "Pasted XML" }
              : { label: "Client ID", value: "client_id" in idp ? idp.client_id : "—" },
            { label: "Provider name in the user pool", value: <Box variant="code">{connection.provider_name}</Box> },
            { label: "Connected", value: formatDateTime(connection.created_at) },
            { label: "Changed", value: formatDateTime(connection.updated_at) },
          ]}
        />
        <SpaceBetween size="s" data-testid="sso-values">
          <Header
            variant="h3"
            description={`Your ${IDENTITY_PROVIDER}'s administrator pastes these into its settings for this application.`}
          >
            Values for your identity provider
          </Header>
          <ValuesToPaste kind={connection.type} sp={connection.sp} />
        </SpaceBetween>
        <SettingsForm key={connection.updated_at} institutionId={institutionId} connection={connection} onSaved={reload} />
      </SpaceBetween>
    );
  }

  return (
    <SpaceBetween size="m">
      <Header
        variant="h3"
        description={`The institution's own ${IDENTITY_PROVIDER}, over SAML 2.0 or OpenID Connect.`}
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            {connection && <Button onClick={() => setConfirming(true)}>Disconnect</Button>}
            {connection && <Button onClick={() => setEditing("change")}>Change identity provider</Button>}
            {connection === null && (
              <Button variant="primary" onClick={() => setEditing("connect")}>
                Connect identity provider
              </Button>
            )}
          </SpaceBetween>
        }
      >
        Identity provider
      </Header>
      {connection && verifiedDomains === 0 && <Alert type="warning">Nobody can sign in through it until a domain is verified.</Alert>}
      {body}
      {editing !== undefined && connection !== undefined && (
        <IdpDialog
          // A fresh form each time it opens, from the connection as it is then.
          institutionId={institutionId}
          current={editing === "change" ? connection : null}
          visible
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            setEditing(undefined);
            flash({
              type: "success",
              content:
                editing === "change"
                  ? "Identity provider changed"
                  : `${KIND_LABELS[saved.type]} identity provider connected: give its administrator the values below`,
            });
            reload();
          }}
        />
      )}
      <Dialog
        visible={confirming}
        header="Disconnect single sign-on?"
        onDismiss={() => setConfirming(false)}
        footer={
          <DialogFooter
            action="Disconnect"
            busy={disconnecting.busy}
            onCancel={() => setConfirming(false)}
            onAction={() => void disconnect()}
          />
        }
      >
        <SpaceBetween size="s">
          <Box variant="p">
            The {IDENTITY_PROVIDER} is removed from the user pool: nobody can sign in through it any more, and require single sign-on ends
            with it. Administrators keep their access to the institution; the verified domains stay.
          </Box>
          <Refusal error={disconnecting.error} />
        </SpaceBetween>
      </Dialog>
    </SpaceBetween>
  );
}
