/**
 * Sign-in with the Cognito user pool (USER_PASSWORD_AUTH), and the new password a first sign-in must set
 * (NEW_PASSWORD_REQUIRED). Shown in place of any page while nobody is signed in, so the page asked for
 * (an invitation link) is where the person lands afterwards.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Container from "@cloudscape-design/components/container";
import Form from "@cloudscape-design/components/form";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import SpaceBetween from "@cloudscape-design/components/space-between";
import TopNavigation from "@cloudscape-design/components/top-navigation";
import { type FormEvent, useEffect, useState } from "react";
import { sessionEndReason, setSession } from "../auth/session";
import { getConfig } from "../config";
import { ACCEPT_PATH } from "../invitation";
import { useLocation } from "../router";

type Step = { kind: "password" } | { kind: "new-password"; username: string; session: string };

const loadCognito = () => import("../auth/cognito");

export default function SignIn() {
  const { pathname } = useLocation();
  const [step, setStep] = useState<Step>({ kind: "password" });
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [confirmError, setConfirmError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ended = sessionEndReason();
  const forInvitation = pathname.replace(/\/+$/, "") === ACCEPT_PATH;

  useEffect(() => {
    document.title = "Sign in · Institution Admin";
    // Fetched while the person types, so the click does not wait for it.
    void loadCognito();
  }, []);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setFieldError(undefined);
    setConfirmError(undefined);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError("Enter your e-mail address and password.");
      return;
    }
    void run(async () => {
      const cognito = await loadCognito();
      try {
        const result = await cognito.signIn(getConfig(), email.trim().toLowerCase(), password);
        if (result.kind === "signed-in") setSession(result.tokens);
        else {
          setPassword("");
          setStep(result);
        }
      } catch (err) {
        setError(cognito.signInMessage(err));
      }
    });
  };

  const submitNewPassword = (e: FormEvent) => {
    e.preventDefault();
    if (step.kind !== "new-password") return;
    if (newPassword !== confirm) {
      setFieldError(undefined);
      setConfirmError("The two passwords differ.");
      return;
    }
    void run(async () => {
      const cognito = await loadCognito();
      try {
        const result = await cognito.setNewPassword(getConfig(), step.username, step.session, newPassword);
        if (result.kind === "signed-in") setSession(result.tokens);
      } catch (err) {
        const message = cognito.signInMessage(err, "new-password");
        if ((err as Error).name === "InvalidPasswordException") setFieldError(message);
        else setError(message);
      }
    });
  };

  return (
    <>
      <div id="top-nav">
        <TopNavigation identity={{ href: "/", title: "Institution Admin" }} />
      </div>
      <main style={{ maxWidth: 480, margin: "0 auto", padding: "32px 16px" }}>
        <SpaceBetween size="l">
          {forInvitation && (
            <Alert type="info" header="Sign in to accept your invitation">
              Sign in with the e-mail address the invitation was sent to. You will accept it on the next page.
            </Alert>
          )}
          {ended && step.kind === "password" && <Alert type="warning">{ended}</Alert>}
          {step.kind === "password" ? (
            <form onSubmit={submitPassword} noValidate>
              <Form
                header={<Header variant="h1">Sign in</Header>}
                errorText={error}
                errorIconAriaLabel="Error"
                actions={
                  <Button variant="primary" loading={busy} formAction="submit">
                    Sign in
                  </Button>
                }
              >
                <Container>
                  <SpaceBetween size="m">
                    <FormField label="E-mail address">
                      <Input
                        type="email"
                        inputMode="email"
                        autoComplete="username"
                        value={email}
                        onChange={({ detail }) => setEmail(detail.value)}
                        autoFocus
                      />
                    </FormField>
                    <FormField label="Password">
                      <Input
                        type="password"
                        autoComplete="current-password"
                        value={password}
                        onChange={({ detail }) => setPassword(detail.value)}
                      />
                    </FormField>
                  </SpaceBetween>
                </Container>
              </Form>
            </form>
          ) : (
            <form onSubmit={submitNewPassword} noValidate>
              <Form
                header={
                  <Header variant="h1" description="This is your first sign-in: replace the temporary password with one only you know.">
                    Choose a new password
                  </Header>
                }
                errorText={error}
                errorIconAriaLabel="Error"
                actions={
                  <SpaceBetween direction="horizontal" size="xs">
                    <Button
                      variant="link"
                      formAction="none"
                      onClick={() => {
                        setStep({ kind: "password" });
                        setError(undefined);
                      }}
                    >
                      Cancel
                    </Button>
                    <Button variant="primary" loading={busy} formAction="submit">
                      Set password and sign in
                    </Button>
                  </SpaceBetween>
                }
              >
                <Container>
                  <SpaceBetween size="m">
                    <Box variant="p">
                      Signing in as <strong>{step.username}</strong>
                    </Box>
                    <FormField
                      label="New password"
                      constraintText="At least 12 characters, with upper- and lower-case letters, a digit and a symbol."
                      errorText={fieldError}
                    >
                      <Input
                        type="password"
                        autoComplete="new-password"
                        value={newPassword}
                        onChange={({ detail }) => setNewPassword(detail.value)}
                        autoFocus
                      />
                    </FormField>
                    <FormField label="Repeat the new password" errorText={confirmError}>
                      <Input
                        type="password"
                        autoComplete="new-password"
                        value={confirm}
                        onChange={({ detail }) => setConfirm(detail.value)}
                      />
                    </FormField>
                  </SpaceBetween>
                </Container>
              </Form>
            </form>
          )}
        </SpaceBetween>
      </main>
    </>
  );
}
