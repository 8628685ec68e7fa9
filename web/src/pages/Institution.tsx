/** One institution: its record and settings (with their defaults), its cohorts, its administrators and their invitations. */
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Container from "@cloudscape-design/components/container";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Header from "@cloudscape-design/components/header";
import KeyValuePairs from "@cloudscape-design/components/key-value-pairs";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Spinner from "@cloudscape-design/components/spinner";
import StatusIndicator from "@cloudscape-design/components/status-indicator";
import Tabs from "@cloudscape-design/components/tabs";
import { lazy, Suspense, useState } from "react";
import { SETTINGS_DEFAULTS, SETTINGS_KEYS } from "../../../shared/constants";
import { apiPaths, client, withETag } from "../api";
import { useSession } from "../auth/session";
import { Administrators } from "../components/Administrators";
import { ApiKeys } from "../components/ApiKeys";
import { Cohorts } from "../components/Cohorts";
import { DeleteInstitution } from "../components/DeleteInstitution";
import { ErrorNotice } from "../components/ErrorNotice";
import { Invitations } from "../components/Invitations";
import { RolesPopover } from "../components/RolesHelp";
import { Scim } from "../components/Scim";
import { formatDateTime, humanize, roleLabel } from "../format";
import { EmailText, useNarrow } from "../narrow";
import { navigate, query, useLocation } from "../router";
import { usePage } from "../shell";
import { useApi } from "../useApi";

const TABS = ["details", "cohorts", "invitations", "sso"] as const;

// Its own chunk: only this tab needs it.
const Sso = lazy(() => import("../components/Sso"));

export default function InstitutionPage({ id }: { id: string }) {
  const { data, error, reload } = useApi(`${apiPaths.institutions}/${id}`, async (signal) =>
    withETag(await client.GET(`${apiPaths.institutions}/{id}`, { params: { path: { id } }, signal })),
  );
  const session = useSession();
  const narrow = useNarrow();
  const { search, pathname } = useLocation();
  const [deleting, setDeleting] = useState(false);
  const name = data?.institution.name;
  usePage(name ?? "Institution", [
    { text: "Institutions", href: "/institutions" },
    { text: name ?? "Institution", href: `/institutions/${encodeURIComponent(id)}` },
  ]);

  if (!data) {
    return error !== undefined ? (
      <ContentLayout header={<Header variant="h1">Institution</Header>}>
        <ErrorNotice error={error} onRetry={reload} />
      </ContentLayout>
    ) : (
      <Box textAlign="center" padding="xxl">
        <Spinner size="large" />
      </Box>
    );
  }

  const { institution: i, role, is_super_admin: owner, settings } = data;
  const tab = TABS.find((t) => t === search.get("tab")) ?? "details";

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={`Your role: ${roleLabel(role)}${owner ? " · you are the institution's super admin" : ""}`}
          info={<RolesPopover />}
          actions={
            owner && (
              <SpaceBetween direction="horizontal" size="xs">
                <Button onClick={() => navigate(`/institutions/${encodeURIComponent(i.id)}/edit`)}>Edit</Button>
                <Button onClick={() => setDeleting(true)}>Delete</Button>
              </SpaceBetween>
            )
          }
        >
          {i.name}
        </Header>
      }
    >
      <Tabs
        activeTabId={tab}
        onChange={({ detail }) =>
          navigate(`${pathname}${query({ tab: detail.activeTabId === "details" ? undefined : detail.activeTabId })}`, { replace: true })
        }
        ariaLabel="Institution sections"
        tabs={[
          {
            id: "details",
            label: "Details",
            content: (
              <SpaceBetween size="l">
                <Container header={<Header variant="h2">Institution</Header>}>
                  <KeyValuePairs
                    // One column on a phone: two left each value a third of the width, too little for an address.
                    columns={narrow ? 1 : 3}
                    items={[
                      { label: "Registration number", value: i.registration_number ?? "—" },
                      { label: "Contact e-mail", value: i.contact_email ? <EmailText address={i.contact_email} /> : "—" },
                      { label: "Contact phone", value: i.contact_phone ?? "—" },
                      { label: "Address", value: i.address ? <span style={{ whiteSpace: "pre-line" }}>{i.address}</span> : "—" },
                      { label: "Created", value: formatDateTime(i.created_at) },
                      { label: "Updated", value: formatDateTime(i.updated_at) },
                      { label: "Institution ID", value: <Box variant="code">{i.id}</Box> },
                    ]}
                  />
                </Container>
                <Container
                  header={
                    <Header variant="h2" description="Settings nobody has set follow their defaults.">
                      Settings
                    </Header>
                  }
                >
                  <KeyValuePairs
                    columns={4}
                    items={SETTINGS_KEYS.map((k) => ({
                      label: humanize(k),
                      value: (
                        <SpaceBetween size="xxxs">
                          <StatusIndicator type={settings[k] ? "success" : "stopped"}>{settings[k] ? "On" : "Off"}</StatusIndicator>
                          <Box variant="small" color="text-body-secondary">
                            {k in i.settings ? `Set (default: ${SETTINGS_DEFAULTS[k] ? "on" : "off"})` : "Default"}
                          </Box>
                        </SpaceBetween>
                      ),
                    }))}
                  />
                </Container>
                {owner && <ApiKeys institutionId={i.id} />}
              </SpaceBetween>
            ),
          },
          { id: "cohorts", label: "Cohorts", content: <Cohorts institutionId={i.id} owner={owner} /> },
          {
            id: "invitations",
            label: "Administrators and invitations",
            content: (
              <SpaceBetween size="l">
                <Administrators
                  institution={i}
                  owner={owner}
                  self={session?.userId}
                  onChanged={(change) => (change === "left" ? navigate("/institutions") : reload())}
                />
                <Invitations institutionId={i.id} role={role} hasStatus={session?.superAdmin === true} owner={owner} />
                {owner && <Scim institutionId={i.id} />}
              </SpaceBetween>
            ),
          },
          {
            id: "sso",
            label: "Single sign-on",
            content: (
              <Suspense
                fallback={
                  <Box textAlign="center" padding="l">
                    <Spinner size="large" />
                  </Box>
                }
              >
                <Sso institutionId={i.id} owner={owner} />
              </Suspense>
            ),
          },
        ]}
      />
      <DeleteInstitution
        institution={deleting ? { id: i.id, name: i.name, etag: data.etag } : undefined}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate("/institutions")}
        onReload={reload}
      />
    </ContentLayout>
  );
}
