/**
 * Accepting an invitation from its mail link. The token was moved from the address bar into this tab's
 * storage (invitation.ts); the person is signed in by now (App shows the sign-in first). The page first
 * says what is offered (the preview: who invited, to what, as what, until when; it consumes nothing), and
 * accepting is a deliberate click, so the person sees which account accepts it. Only the token's first 8
 * characters show.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Container from "@cloudscape-design/components/container";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Header from "@cloudscape-design/components/header";
import KeyValuePairs from "@cloudscape-design/components/key-value-pairs";
import Link from "@cloudscape-design/components/link";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { type ReactNode, useEffect, useState } from "react";
import { ApiError, alreadyAccepted, apiPaths, client, ok } from "../api";
import { clearSession, useSession } from "../auth/session";
import { describe } from "../components/ErrorNotice";
import { formatDay, roleLabel } from "../format";
import { forgetInvitationToken, forgetJoinLanding, invitationToken, joinLanding, TOKEN_PATTERN, tokenPreview } from "../invitation";
import { follow, navigate } from "../router";
import { usePage, useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";

interface Failure {
  readonly header: string;
  readonly body: ReactNode;
  /** The same click may work a moment later. */
  readonly retry?: boolean;
}

export default function AcceptInvitation() {
  usePage("Accept invitation", [{ text: "Accept invitation", href: "/invitations/accept" }]);
  const session = useSession();
  const { flash } = useShell();
  // Just joined from this link (JoinInvitation) and signed in: the invitation is accepted, open the institution.
  const [landing] = useState(joinLanding);
  useEffect(() => {
    if (!landing) return;
    forgetJoinLanding();
    const page = `/institutions/${encodeURIComponent(landing.id)}`;
    flash(
      { type: "success", header: "Account created", content: `You are now ${roleLabel(landing.role)} of ${landing.name}.` },
      { on: page },
    );
    navigate(page, { replace: true });
  }, [landing, flash]);
  const [token] = useState(() => (landing ? undefined : invitationToken()));
  const { busy, error: failure, submit } = useSubmit({ explain: (err) => explain(err, email) });
  const email = session?.email ?? "";
  // The token goes in a POST body, never in a URL; the key names only this page's one preview.
  const preview = useApi(token && TOKEN_PATTERN.test(token) ? "invitation-preview" : undefined, async (signal) =>
    ok(await client.POST(apiPaths.invitationsPreview, { body: { token: token ?? "" }, signal })),
  );
  const offer = preview.data;
  const refused = preview.error === undefined ? undefined : explain(preview.error, email);

  const switchUser = () => {
    // The token stays in this tab: after the next sign-in, this page comes back with it.
    clearSession();
  };

  const accept = () =>
    submit(async () => {
      if (!token) return;
      const res = ok(await client.POST(apiPaths.invitationsAccept, { body: { token } }));
      forgetInvitationToken();
      const page = `/institutions/${encodeURIComponent(res.institution.id)}`;
      flash(
        { type: "success", header: res.message, content: `You are now ${roleLabel(res.role)} of ${res.institution.name}.` },
        { on: page },
      );
      navigate(page, { replace: true });
    });

  const header = (
    <Header variant="h1" description="An administrator of an institution invited you to help administer it.">
      Accept invitation
    </Header>
  );

  if (landing) return null;
  if (!token) {
    return (
      <ContentLayout header={header}>
        <Alert type="error" header="This page needs the link from your invitation e-mail">
          No invitation was found in this link. Open the link in the invitation e-mail again; if your mail program split it over two lines,
          copy the whole link into the address bar.
        </Alert>
      </ContentLayout>
    );
  }
  if (!TOKEN_PATTERN.test(token)) {
    return (
      <ContentLayout header={header}>
        <Alert type="error" header="This invitation link is incomplete">
          The invitation code in the link has {token.length} characters where it should have 43, so part of it was lost or changed. Copy the
          whole link from the invitation e-mail into the address bar.
        </Alert>
      </ContentLayout>
    );
  }

  return (
    <ContentLayout header={header}>
      <SpaceBetween size="l">
        {refused && !failure && (
          <Alert type="error" header={refused.header}>
            {refused.body}
          </Alert>
        )}
        {failure && (
          <Alert
            type="error"
            header={failure.header}
            action={failure.retry ? <Button onClick={() => void accept()}>Try again</Button> : undefined}
          >
            {failure.body}
          </Alert>
        )}
        <Container
          header={<Header variant="h2">Your invitation</Header>}
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button onClick={switchUser}>Sign in as someone else</Button>
                <Button variant="primary" loading={busy} onClick={() => void accept()}>
                  Accept invitation
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          <SpaceBetween size="m">
            {offer ? (
              <Box variant="p" data-testid="invitation-preview">
                {`${offer.invited_by.name ? `${offer.invited_by.name} (${offer.invited_by.email})` : offer.invited_by.email} invited you to administer ${offer.institution.name} as ${roleLabel(offer.role)}. Expires ${formatDay(offer.expires_at)}.`}
              </Box>
            ) : (
              preview.loading && (
                <Box variant="p" color="text-body-secondary">
                  Reading your invitation…
                </Box>
              )
            )}
            <KeyValuePairs
              columns={2}
              items={[
                { label: "Invitation", value: <Box variant="code">{tokenPreview(token)}</Box> },
                { label: "Signed in as", value: email },
              ]}
            />
            <Box variant="p">
              The invitation must be addressed to <strong>{email}</strong>. If it was sent to another address, sign in with that one.
            </Box>
          </SpaceBetween>
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}

/** Every way an accept can fail, in words. The API gives one answer for all token problems, on purpose. */
function explain(err: unknown, email: string): Failure {
  const done = alreadyAccepted(err);
  if (done) {
    return {
      header: "You have already accepted this invitation",
      body: (
        <span>
          You are an administrator of {done.institution}: find it among{" "}
          <Link href="/institutions" onFollow={follow}>
            your institutions
          </Link>
          .
        </span>
      ),
    };
  }
  if (err instanceof ApiError && err.status === 422 && err.message === "Invalid or expired invitation") {
    return {
      header: "This invitation cannot be accepted",
      body: (
        <SpaceBetween size="xs">
          <span>For your protection the service does not say which of these applies:</span>
          <ul style={{ margin: 0 }}>
            <li>It was sent to another e-mail address than {email || "the one you signed in with"}.</li>
            <li>It has expired: invitations are valid for 7 days.</li>
            <li>It was already accepted.</li>
            <li>It was revoked, or sent again with a new link that replaces this one.</li>
          </ul>
          <span>Sign in with the invited address, or ask the administrator who invited you for a new invitation.</span>
        </SpaceBetween>
      ),
    };
  }
  if (err instanceof ApiError && err.status === 422) {
    return { header: "The invitation cannot be accepted", body: err.message };
  }
  if (err instanceof ApiError && err.status === 409) {
    return { header: "The invitation was busy", body: `${err.message}.`, retry: true };
  }
  const d = describe(err);
  return { header: d.header, body: d.text, retry: !(err instanceof ApiError) || err.status === 0 || err.status >= 500 };
}
