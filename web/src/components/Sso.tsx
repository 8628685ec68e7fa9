/**
 * The institution's Single sign-on section (docs/sso.md): its verified domains and its identity provider.
 * Only the institution's super admin manages them (the API's rule); any other administrator reads the domains
 * and is told who manages the rest. Loaded on demand: the institution page's other tabs never need it.
 */
import Box from "@cloudscape-design/components/box";
import Container from "@cloudscape-design/components/container";
import Header from "@cloudscape-design/components/header";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { ApiError, client, ok } from "../api";
import { IDENTITY_PROVIDER } from "../terms";
import { useApi } from "../useApi";
import { ErrorNotice } from "./ErrorNotice";
import { SSO_PATH, SsoConnection } from "./SsoConnection";
import { DOMAINS_PATH, SsoDomains } from "./SsoDomains";

export default function Sso({ institutionId, owner }: { institutionId: string; owner: boolean }) {
  const params = { path: { id: institutionId } };
  const domains = useApi(
    DOMAINS_PATH.replace("{id}", institutionId),
    async (signal) => ok(await client.GET(DOMAINS_PATH, { params, signal })).domains,
  );
  // The connection is its super admin's alone: anyone else's read would be refused (and recorded), so it is not asked for.
  const connection = useApi(owner ? SSO_PATH.replace("{id}", institutionId) : undefined, async (signal) => {
    try {
      return ok(await client.GET(SSO_PATH, { params, signal })).sso;
    } catch (err) {
      // Not connected: the section offers to connect.
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  });
  const verified = domains.data?.filter((d) => d.state === "verified").length ?? 0;

  return (
    <Container
      data-testid="sso-section"
      header={
        <Header
          variant="h2"
          description={`People on your verified domains sign in with their institution's own account, through its ${IDENTITY_PROVIDER}, with "Continue with" on the sign-in page.`}
        >
          Single sign-on
        </Header>
      }
    >
      <SpaceBetween size="xl">
        {!owner && <Box color="text-body-secondary">Only the institution's super admin manages single sign-on and its domains.</Box>}
        <SsoDomains
          institutionId={institutionId}
          owner={owner}
          domains={domains.data}
          loading={domains.loading}
          error={domains.error}
          reload={domains.reload}
        />
        {owner && connection.error !== undefined && <ErrorNotice error={connection.error} onRetry={connection.reload} />}
        {owner && (
          <SsoConnection institutionId={institutionId} connection={connection.data} verifiedDomains={verified} reload={connection.reload} />
        )}
      </SpaceBetween>
    </Container>
  );
}
