/**
 * Create an institution, or edit one: only what changed is sent, so the audit event names exactly that, and
 * with `If-Match` the version that was read, so that an edit never overwrites someone else's unseen (a 412
 * offers to reload).
 */
import Alert from "@cloudscape-design/components/alert";
import Button from "@cloudscape-design/components/button";
import Checkbox from "@cloudscape-design/components/checkbox";
import ColumnLayout from "@cloudscape-design/components/column-layout";
import Container from "@cloudscape-design/components/container";
import Form from "@cloudscape-design/components/form";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Spinner from "@cloudscape-design/components/spinner";
import Textarea from "@cloudscape-design/components/textarea";
import { type FormEvent, useEffect, useState } from "react";
import { SETTINGS_DEFAULTS, SETTINGS_KEYS, type SettingsKey } from "../../../shared/constants";
import {
  apiPaths,
  client,
  type Institution,
  type InstitutionChanges,
  type InstitutionView,
  isChangedElsewhere,
  ok,
  withETag,
} from "../api";
import { describe, ErrorNotice } from "../components/ErrorNotice";
import { humanize } from "../format";
import { navigate } from "../router";
import { usePage, useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";

const TEXT_FIELDS = ["name", "registration_number", "address", "contact_email", "contact_phone"] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Values = Record<TextField, string> & { settings: Record<SettingsKey, boolean> };

/** The attribute names the API's 422 messages start with. Settings have no field: their messages show on the form. */
const LABELS: Record<TextField, string> = {
  name: "Name",
  registration_number: "Registration number",
  address: "Address",
  contact_email: "Contact email",
  contact_phone: "Contact phone",
};

const empty: Values = {
  name: "",
  registration_number: "",
  address: "",
  contact_email: "",
  contact_phone: "",
  settings: { ...SETTINGS_DEFAULTS },
};

function valuesOf(view: InstitutionView): Values {
  const i: Institution = view.institution;
  return {
    name: i.name,
    registration_number: i.registration_number ?? "",
    address: i.address ?? "",
    contact_email: i.contact_email ?? "",
    contact_phone: i.contact_phone ?? "",
    settings: { ...view.settings },
  };
}

/**
 * The body of create (the name, what is filled in, the settings that differ from their defaults) or of
 * update (what differs from `before`): a setting left at its default stays unset, and follows the default.
 */
function changes(values: Values, before: Values | undefined): InstitutionChanges {
  const out: InstitutionChanges = {};
  for (const f of TEXT_FIELDS) if (before ? values[f] !== before[f] : f === "name" || values[f] !== "") out[f] = values[f];
  const settings: Partial<Record<SettingsKey, boolean>> = {};
  for (const k of SETTINGS_KEYS) if (values.settings[k] !== (before ?? empty).settings[k]) settings[k] = values.settings[k];
  if (Object.keys(settings).length > 0) out.settings = settings;
  return out;
}

export default function InstitutionForm({ id }: { id?: string | undefined }) {
  const editing = id !== undefined;
  const loaded = useApi(editing ? `${apiPaths.institutions}/${id}` : undefined, async (signal) =>
    withETag(await client.GET(`${apiPaths.institutions}/{id}`, { params: { path: { id: id ?? "" } }, signal })),
  );
  const name = loaded.data?.institution.name;
  const base = { text: "Institutions", href: "/institutions" };
  usePage(
    editing ? `Edit ${name ?? "institution"}` : "Create institution",
    editing
      ? [base, { text: name ?? "Institution", href: `/institutions/${encodeURIComponent(id)}` }, { text: "Edit", href: "#" }]
      : [base, { text: "Create institution", href: "/institutions/new" }],
  );
  const { flash } = useShell();
  const [before, setBefore] = useState<Values>();
  const [values, setValues] = useState<Values>(empty);
  const {
    busy,
    fieldErrors: errors,
    error: formError,
    submit,
    reset,
  } = useSubmit({ fields: LABELS, explain: (err) => ({ ...describe(err), changed: isChangedElsewhere(err) }) });
  /** After a 412: the current version, in place of what was being edited. */
  const reloadCurrent = () => {
    reset();
    loaded.reload();
  };

  useEffect(() => {
    if (loaded.data) {
      const v = valuesOf(loaded.data);
      setBefore(v);
      setValues(v);
    }
  }, [loaded.data]);

  if (editing && !loaded.data) {
    return loaded.error !== undefined ? <ErrorNotice error={loaded.error} onRetry={loaded.reload} /> : <Spinner size="large" />;
  }
  if (editing && loaded.data && !loaded.data.is_super_admin) {
    return (
      <Alert type="error" header="Access denied">
        Only the institution's super admin can edit {loaded.data.institution.name}.
      </Alert>
    );
  }

  const set = (field: TextField) => ({
    value: values[field],
    onChange: ({ detail }: { detail: { value: string } }) => setValues((v) => ({ ...v, [field]: detail.value })),
  });

  const save = (e: FormEvent) => {
    e.preventDefault();
    return submit(async () => {
      if (editing) {
        const body = { institution: changes(values, before) };
        const etag = loaded.data?.etag;
        const params = { path: { id }, ...(etag !== undefined && { header: { "If-Match": etag } }) };
        const res = ok(await client.PATCH(`${apiPaths.institutions}/{id}`, { params, body }));
        const page = `/institutions/${encodeURIComponent(id)}`;
        flash({ type: "success", content: res.message }, { on: page });
        navigate(page);
      } else {
        const body = { institution: { ...changes(values, undefined), name: values.name } };
        const res = ok(await client.POST(apiPaths.institutions, { body }));
        const page = `/institutions/${encodeURIComponent(res.institution.id)}`;
        flash({ type: "success", content: `${res.message}: ${res.institution.name}` }, { on: page });
        navigate(page);
      }
    });
  };

  const cancel = () => navigate(editing ? `/institutions/${encodeURIComponent(id)}` : "/institutions");

  return (
    <form onSubmit={(e) => void save(e)} noValidate>
      <Form
        header={
          <Header variant="h1" description={editing ? "Only the fields you change are sent." : "You become the institution's super admin."}>
            {editing ? `Edit ${name}` : "Create institution"}
          </Header>
        }
        errorText={formError && !formError.changed ? `${formError.header}: ${formError.text}` : undefined}
        errorIconAriaLabel="Error"
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" formAction="none" onClick={cancel}>
              Cancel
            </Button>
            <Button variant="primary" loading={busy} formAction="submit">
              {editing ? "Save changes" : "Create institution"}
            </Button>
          </SpaceBetween>
        }
      >
        <SpaceBetween size="l">
          {formError?.changed && (
            <Alert
              type="warning"
              header={formError.header}
              action={
                <Button formAction="none" onClick={reloadCurrent}>
                  Reload
                </Button>
              }
            >
              {formError.text} Reloading replaces what you entered here.
            </Alert>
          )}
          <Container header={<Header variant="h2">Institution</Header>}>
            <SpaceBetween size="m">
              <FormField label="Name" errorText={errors.name} constraintText="Required, up to 255 characters.">
                <Input {...set("name")} />
              </FormField>
              <FormField
                label={
                  <>
                    Registration number <i>- optional</i>
                  </>
                }
                errorText={errors.registration_number}
                constraintText="Unique within your account."
              >
                <Input {...set("registration_number")} />
              </FormField>
              <ColumnLayout columns={2}>
                <FormField
                  label={
                    <>
                      Contact e-mail <i>- optional</i>
                    </>
                  }
                  errorText={errors.contact_email}
                >
                  <Input type="email" inputMode="email" {...set("contact_email")} />
                </FormField>
                <FormField
                  label={
                    <>
                      Contact phone <i>- optional</i>
                    </>
                  }
                  errorText={errors.contact_phone}
                  constraintText="Digits, spaces and + - ( )."
                >
                  <Input type="text" inputMode="tel" {...set("contact_phone")} />
                </FormField>
              </ColumnLayout>
              <FormField
                label={
                  <>
                    Address <i>- optional</i>
                  </>
                }
                errorText={errors.address}
              >
                <Textarea rows={3} {...set("address")} />
              </FormField>
            </SpaceBetween>
          </Container>
          <Container
            header={
              <Header
                variant="h2"
                description={editing ? "Settings you leave alone keep their current value." : "A setting left at its default follows it."}
              >
                Settings
              </Header>
            }
          >
            <SpaceBetween size="s">
              {SETTINGS_KEYS.map((k) => (
                <Checkbox
                  key={k}
                  checked={values.settings[k]}
                  description={`Default: ${SETTINGS_DEFAULTS[k] ? "on" : "off"}`}
                  onChange={({ detail }) => setValues((v) => ({ ...v, settings: { ...v.settings, [k]: detail.checked } }))}
                >
                  {humanize(k)}
                </Checkbox>
              ))}
            </SpaceBetween>
          </Container>
        </SpaceBetween>
      </Form>
    </form>
  );
}
