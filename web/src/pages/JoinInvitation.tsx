/**
 * The invitation link opened by someone not signed in (docs/console-sign-in.md): the invitation is read with `open`
 * (no sign-in; the token in this tab is the credential), then the page offers what fits. No account with
 * the invited address: "Create your account" (name and a password under the pool's policy) registers and
 * accepts in one request, then signs in and lands on the institution. An account exists: sign in, then
 * accept on the next page. An invitation this person already accepted says so.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Container from "@cloudscape-design/components/container";
import Form from "@cloudscape-design/components/form";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import KeyValuePairs from "@cloudscape-design/components/key-value-pairs";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { ApiError, alreadyAccepted, apiPaths, client, ok } from "../api";
import { PASSWORD_POLICY, passwordProblems } from "../auth/policy";
import { describe } from "../components/ErrorNotice";
import { ROLE_POWERS } from "../components/RolesHelp";
import { SignedOutBar } from "../components/SignedOutBar";
import { formatDay, roleLabel } from "../format";
import { invitationToken, keepJoinLanding, TOKEN_PATTERN } from "../invitation";
import { useApi } from "../useApi";
import SignIn from "./SignIn";

export default function JoinInvitation() {
  const [token] = useState(invitationToken);
  const valid = token !== undefined && TOKEN_PATTERN.test(token);
  const opened = useApi(valid ? "invitation-open" : undefined, async (signal) =>
    ok(await client.POST(apiPaths.invitationsOpen, { body: { token: token ?? "" }, signal })),
  );
  const [mode, setMode] = useState<"offer" | "sign-in">("offer");
  const [joined, setJoined] = useState<{ email: string; password: string }>();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [nameError, setNameError] = useState<string>();
  const [passwordError, setPasswordError] = useState<string>();
  const [confirmError, setConfirmError] = useState<string>();
  const [error, setError] = useState<ReactNode>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = "Your invitation · Institution Admin";
  }, []);

  // Signing in: the sign-in page (for an existing account), or the new account's sign-in with its challenges.
  if (joined) return <SignIn prefill={joined} />;
  // The invitation names the address: the sign-in page has it filled in, so only the password is left to type.
  if (mode === "sign-in") return <SignIn email={opened.data?.email} />;

  const offer = opened.data;

  const register = (e: FormEvent) => {
    e.preventDefault();
    if (!offer || !token) return;
    const trimmed = name.trim();
    const nameProblem =
      trimmed === "" ? "Enter your name." : [...trimmed].length > 128 ? "Your name can have at most 128 characters." : undefined;
    const problems = passwordProblems(password);
    setNameError(nameProblem);
    setPasswordError(problems.length > 0 ? `${problems.join(". ")}.` : undefined);
    setConfirmError(password !== confirm ? "The two passwords differ." : undefined);
    if (nameProblem || problems.length > 0 || password !== confirm) return;
    setBusy(true);
    setError(undefined);
    void (async () => {
      try {
        const res = ok(await client.POST(apiPaths.invitationsRegister, { body: { token, name: trimmed, password } }));
        // After the sign-in, the console opens the institution (AcceptInvitation takes this).
        keepJoinLanding({ id: res.institution.id, name: res.institution.name, role: res.role });
        setJoined({ email: offer.email, password });
      } catch (err) {
        if (err instanceof ApiError && err.status === 422 && err.errors.length > 0) {
          const pw = err.errors.filter((m) => /password/i.test(m));
          const nm = err.errors.filter((m) => !/password/i.test(m));
          setPasswordError(pw.length > 0 ? pw.join(". ") : undefined);
          setNameError(nm.length > 0 ? nm.join(". ") : undefined);
        } else if (err instanceof ApiError && err.status === 409 && !alreadyAccepted(err)) {
          setError(
            <SpaceBetween size="xs">
              <span>An account with {offer.email} exists already. Sign in with it to accept the invitation.</span>
              <Button onClick={() => setMode("sign-in")}>Sign in</Button>
            </SpaceBetween>,
          );
        } else setError(refusal(err).body);
      } finally {
        setBusy(false);
      }
    })();
  };

  let content: ReactNode;
  if (!valid) {
    content = (
      <Alert type="error" header="This invitation link is incomplete">
        {token === undefined
          ? "No invitation was found in this link. Open the link in the invitation e-mail again; if your mail program split it over two lines, copy the whole link into the address bar."
          : `The invitation code in the link has ${token.length} characters where it should have 43, so part of it was lost or changed. Copy the whole link from the invitation e-mail into the address bar.`}
      </Alert>
    );
  } else if (opened.error !== undefined) {
    const r = refusal(opened.error);
    content = (
      <Alert
        type={r.info ? "info" : "error"}
        header={r.header}
        action={r.signIn ? <Button onClick={() => setMode("sign-in")}>Sign in</Button> : undefined}
      >
        {r.body}
      </Alert>
    );
  } else if (!offer) {
    content = (
      <Box variant="p" color="text-body-secondary">
        Reading your invitation…
      </Box>
    );
  } else {
    const summary = (
      <Container header={<Header variant="h2">Your invitation</Header>}>
        <SpaceBetween size="s">
          <Box variant="p" data-testid="invitation-preview">
            {`${offer.invited_by.name ? `${offer.invited_by.name} (${offer.invited_by.email})` : offer.invited_by.email} invited you to administer ${offer.institution.name} as ${roleLabel(offer.role)}.`}
          </Box>
          <KeyValuePairs
            columns={2}
            items={[
              { label: "Invited address", value: offer.email },
              { label: "Expires", value: formatDay(offer.expires_at) },
              { label: "Role", value: roleLabel(offer.role) },
              { label: "What the role may do", value: ROLE_POWERS[offer.role] },
            ]}
          />
        </SpaceBetween>
      </Container>
    );
    content = offer.has_account ? (
      <SpaceBetween size="l">
        {summary}
        <Alert type="info" header="You have an account" action={<Button onClick={() => setMode("sign-in")}>Sign in to accept</Button>}>
          Sign in as {offer.email}; you accept the invitation on the next page.
        </Alert>
      </SpaceBetween>
    ) : (
      <SpaceBetween size="l">
        {summary}
        <form onSubmit={register} noValidate>
          <Form
            header={
              <Header
                variant="h2"
                description="You have no account yet: create one to accept the invitation. You sign in with it afterwards."
              >
                Create your account
              </Header>
            }
            errorText={error}
            errorIconAriaLabel="Error"
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" formAction="none" onClick={() => setMode("sign-in")}>
                  I have an account
                </Button>
                <Button variant="primary" formAction="submit" loading={busy}>
                  Create account and accept
                </Button>
              </SpaceBetween>
            }
          >
            <Container>
              <SpaceBetween size="m">
                <FormField label="E-mail address" description="The invited address; you sign in with it.">
                  <Input value={offer.email} readOnly autoComplete="username" />
                </FormField>
                <FormField label="Your name" errorText={nameError} constraintText="As other administrators will see it.">
                  <Input value={name} onChange={({ detail }) => setName(detail.value)} autoComplete="name" />
                </FormField>
                <FormField label="Password" constraintText={PASSWORD_POLICY} errorText={passwordError}>
                  <Input
                    type="password"
                    value={password}
                    onChange={({ detail }) => setPassword(detail.value)}
                    autoComplete="new-password"
                  />
                </FormField>
                <FormField label="Repeat the password" errorText={confirmError}>
                  <Input type="password" value={confirm} onChange={({ detail }) => setConfirm(detail.value)} autoComplete="new-password" />
                </FormField>
              </SpaceBetween>
            </Container>
          </Form>
        </form>
      </SpaceBetween>
    );
  }

  return (
    <>
      <SignedOutBar />
      <main style={{ maxWidth: 720, margin: "0 auto", padding: "32px 16px" }}>
        <SpaceBetween size="l">
          <Header variant="h1" description="An administrator of an institution invited you to help administer it.">
            Your invitation
          </Header>
          {content}
        </SpaceBetween>
      </main>
    </>
  );
}

/** Why the invitation cannot be used, in words, and what to do. */
function refusal(err: unknown): { header: string; body: ReactNode; info?: boolean; signIn?: boolean } {
  const done = alreadyAccepted(err);
  if (done)
    return {
      header: "You have already accepted this invitation",
      body: `You are an administrator of ${done.institution}. Sign in to reach it.`,
      info: true,
      signIn: true,
    };
  if (err instanceof ApiError && err.status === 422) {
    return {
      header: "This invitation cannot be used",
      body: "It has expired (invitations are valid for 7 days), was already used, or was revoked or sent again with a new link that replaces this one. Ask the administrator who invited you for a new invitation.",
    };
  }
  const d = describe(err);
  return { header: d.header, body: d.text };
}
