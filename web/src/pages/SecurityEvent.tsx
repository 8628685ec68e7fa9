/** One security event: who, when, from where, and every detail the event recorded. */
import Box from "@cloudscape-design/components/box";
import Container from "@cloudscape-design/components/container";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Header from "@cloudscape-design/components/header";
import KeyValuePairs from "@cloudscape-design/components/key-value-pairs";
import Link from "@cloudscape-design/components/link";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Spinner from "@cloudscape-design/components/spinner";
import { apiPaths, client, ok } from "../api";
import { AuditTrailForbidden, ErrorNotice, isForbidden } from "../components/ErrorNotice";
import { eventLabel, formatDateTime, humanize } from "../format";
import { follow, query } from "../router";
import { usePage } from "../shell";
import { useApi } from "../useApi";

const text = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

export default function SecurityEventPage({ id }: { id: string }) {
  const { data, error, reload } = useApi(`${apiPaths.securityEvents}/${id}`, async (signal) =>
    ok(await client.GET(`${apiPaths.securityEvents}/{id}`, { params: { path: { id } }, signal })),
  );
  const title = data ? eventLabel(data.event_type) : "Security event";
  usePage(title, [
    { text: "Security events", href: "/security-events" },
    { text: title, href: `/security-events/${encodeURIComponent(id)}` },
  ]);

  if (isForbidden(error)) return <AuditTrailForbidden title="Security event" error={error} />;
  if (!data) {
    return error !== undefined ? (
      <ContentLayout header={<Header variant="h1">Security event</Header>}>
        <ErrorNotice error={error} onRetry={reload} />
      </ContentLayout>
    ) : (
      <Box textAlign="center" padding="xxl">
        <Spinner size="large" />
      </Box>
    );
  }

  const user = data.user;
  const details = Object.entries(data.details);
  return (
    <ContentLayout
      header={
        <Header variant="h1" description={data.description}>
          {title}
        </Header>
      }
    >
      <SpaceBetween size="l">
        <Container header={<Header variant="h2">Event</Header>}>
          <KeyValuePairs
            columns={3}
            items={[
              { label: "Time", value: formatDateTime(data.created_at) },
              { label: "Type", value: <Box variant="code">{data.event_type}</Box> },
              { label: "IP address", value: data.ip_address },
              { label: "User", value: user.name ?? user.email ?? "—" },
              { label: "User e-mail", value: user.email ?? "—" },
              {
                label: "User ID",
                value: user.id ? (
                  <SpaceBetween size="xxxs">
                    <Box variant="code">{user.id}</Box>
                    <Link href={`/security-events${query({ user_id: user.id })}`} onFollow={follow}>
                      Events of this user
                    </Link>
                  </SpaceBetween>
                ) : (
                  "—"
                ),
              },
              { label: "Event ID", value: <Box variant="code">{data.id}</Box> },
            ]}
          />
        </Container>
        <Container header={<Header variant="h2">Details</Header>}>
          {details.length === 0 ? (
            <Box color="text-body-secondary">This event records no details.</Box>
          ) : (
            <KeyValuePairs
              columns={3}
              items={details.map(([k, v]) => ({ label: humanize(k), value: <Box variant="code">{text(v)}</Box> }))}
            />
          )}
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
