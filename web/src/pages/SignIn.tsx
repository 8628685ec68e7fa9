/**
 * Sign-in with the Cognito user pool, every challenge the pool can send (docs/console-sign-in.md): a first sign-in's
 * new password, setting up TOTP where MFA is required, a TOTP or e-mail code, a choice of MFA; and recovery
 * ("Forgot password?": a code by e-mail, a new password, signed in). A step the console cannot complete says
 * what to do instead. Shown in place of any page while nobody is signed in, so the page asked for (an
 * invitation link) is where the person lands afterwards.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Container from "@cloudscape-design/components/container";
import Form from "@cloudscape-design/components/form";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import RadioGroup from "@cloudscape-design/components/radio-group";
import SpaceBetween from "@cloudscape-design/components/space-between";
import TopNavigation from "@cloudscape-design/components/top-navigation";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import type { MfaChoice, Stage, Step } from "../auth/cognito";
import { PASSWORD_POLICY } from "../auth/policy";
import { sessionEndReason } from "../auth/session";
import { TotpSetup } from "../components/TotpSetup";
import { ACCEPT_PATH } from "../invitation";
import { useLocation } from "../router";

/** Where the page is: the password, recovery, or a challenge Cognito sent. */
type View = { kind: "password" } | { kind: "forgot"; reason?: string } | { kind: "forgot-code" } | Exclude<Step, { kind: "signed-in" }>;

const loadCognito = () => import("../auth/cognito");

const MFA_WORDS: Record<MfaChoice, string> = {
  TOTP: "Authenticator app (TOTP)",
  EMAIL: "Code by e-mail",
  SMS: "Code by text message",
};

export interface SignInProps {
  /** Signs in with these at once (a new account, just created from an invitation), then any challenge. */
  readonly prefill?: { readonly email: string; readonly password: string };
  /** The address to sign in with, filled in (an invitation's, when the invitee has an account): the password is next. */
  readonly email?: string;
}

export default function SignIn({ prefill, email: knownEmail }: SignInProps = {}) {
  const { pathname } = useLocation();
  const [view, setView] = useState<View>({ kind: "password" });
  const [email, setEmail] = useState(prefill?.email ?? knownEmail ?? "");
  const [password, setPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [code, setCode] = useState("");
  const [choice, setChoice] = useState<string>("");
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

  const show = (next: View) => {
    setCode("");
    setChoice("");
    setNewPassword("");
    setConfirm("");
    setView(next);
  };

  /** Runs one step; a failure shows at the form (or at the field, for a password the policy refuses). */
  const run = (stage: Stage, action: (cognito: Awaited<ReturnType<typeof loadCognito>>) => Promise<Step | undefined>) => {
    setBusy(true);
    setError(undefined);
    setFieldError(undefined);
    setConfirmError(undefined);
    void (async () => {
      const cognito = await loadCognito();
      try {
        const step = await action(cognito);
        // Signed in: the session changed and App replaces this page.
        if (step && step.kind !== "signed-in") show(step.kind === "reset-password" ? { kind: "forgot", reason: RESET_REQUIRED } : step);
      } catch (err) {
        const message = cognito.signInMessage(err, stage);
        if ((err as Error).name === "InvalidPasswordException" && stage !== "password") setFieldError(message);
        else setError(message);
      } finally {
        setBusy(false);
      }
    })();
  };

  const address = () => email.trim().toLowerCase();

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the first render's prefill.
  useEffect(() => {
    if (prefill) run("password", (cognito) => cognito.signIn(prefill.email.trim().toLowerCase(), prefill.password));
  }, []);

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError("Enter your e-mail address and password.");
      return;
    }
    run("password", async (cognito) => {
      const step = await cognito.signIn(address(), password);
      setPassword("");
      return step;
    });
  };

  /** A new password twice, the same. */
  const samePasswords = (): boolean => {
    if (newPassword === confirm) return true;
    setFieldError(undefined);
    setConfirmError("The two passwords differ.");
    return false;
  };

  const submitAnswer = (e: FormEvent) => {
    e.preventDefault();
    if (view.kind === "new-password") {
      if (!samePasswords()) return;
      run("new-password", (cognito) => cognito.answer(newPassword, address()));
    } else if (view.kind === "select-mfa" || view.kind === "select-mfa-setup") {
      if (!choice) {
        setError("Choose how you will confirm your sign-in.");
        return;
      }
      run("code", (cognito) => cognito.answer(choice, address()));
    } else if (view.kind === "email-setup") {
      run("code", (cognito) => cognito.answer(address(), address()));
    } else {
      if (!/^\d{6,8}$/.test(code)) {
        setError("Enter the code: 6 digits.");
        return;
      }
      const app = view.kind === "totp-code" || view.kind === "totp-setup";
      run(app ? "totp" : "code", (cognito) => cognito.answer(code, address()));
    }
  };

  const submitForgot = (e: FormEvent) => {
    e.preventDefault();
    if (!/^[^@\s]+@[^@\s]+$/.test(email.trim())) {
      setError("Enter the e-mail address you sign in with.");
      return;
    }
    run("reset", async (cognito) => {
      await cognito.forgotPassword(address());
      show({ kind: "forgot-code" });
      return undefined;
    });
  };

  const submitReset = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6,8}$/.test(code)) {
      setError("Enter the code from the e-mail: 6 digits.");
      return;
    }
    if (!samePasswords()) return;
    run("reset", (cognito) => cognito.resetWithCode(address(), code, newPassword));
  };

  const startAgain = () => {
    setError(undefined);
    show({ kind: "password" });
  };
  const cancel = (
    <Button variant="link" formAction="none" onClick={startAgain}>
      Cancel
    </Button>
  );
  const actions = (label: string) => (
    <SpaceBetween direction="horizontal" size="xs">
      {cancel}
      <Button variant="primary" loading={busy} formAction="submit">
        {label}
      </Button>
    </SpaceBetween>
  );

  const newPasswordFields = (
    <>
      <FormField label="New password" constraintText={PASSWORD_POLICY} errorText={fieldError}>
        <Input type="password" autoComplete="new-password" value={newPassword} onChange={({ detail }) => setNewPassword(detail.value)} />
      </FormField>
      <FormField label="Repeat the new password" errorText={confirmError}>
        <Input type="password" autoComplete="new-password" value={confirm} onChange={({ detail }) => setConfirm(detail.value)} />
      </FormField>
    </>
  );

  const codeField = (label: string, constraint: string) => (
    <FormField label={label} constraintText={constraint}>
      <Input
        value={code}
        onChange={({ detail }) => setCode(detail.value.replace(/\s/g, ""))}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus
      />
    </FormField>
  );

  /** One step's form: a header, its fields, its button. */
  const form = (onSubmit: (e: FormEvent) => void, title: string, description: string, label: string, body: ReactNode) => (
    <form onSubmit={onSubmit} noValidate>
      <Form
        header={
          <Header variant="h1" description={description}>
            {title}
          </Header>
        }
        errorText={error}
        errorIconAriaLabel="Error"
        actions={actions(label)}
      >
        <Container>
          <SpaceBetween size="m">{body}</SpaceBetween>
        </Container>
      </Form>
    </form>
  );

  const signingInAs = (
    <Box variant="p">
      Signing in as <strong>{address()}</strong>
    </Box>
  );

  let content: ReactNode;
  switch (view.kind) {
    case "password":
      content = (
        <form onSubmit={submitPassword} noValidate>
          <Form
            header={<Header variant="h1">Sign in</Header>}
            errorText={error}
            errorIconAriaLabel="Error"
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  variant="link"
                  formAction="none"
                  onClick={() => {
                    setError(undefined);
                    show({ kind: "forgot" });
                  }}
                >
                  Forgot password?
                </Button>
                <Button variant="primary" loading={busy} formAction="submit">
                  Sign in
                </Button>
              </SpaceBetween>
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
                    autoFocus={!knownEmail}
                  />
                </FormField>
                <FormField label="Password">
                  <Input
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={({ detail }) => setPassword(detail.value)}
                    autoFocus={Boolean(knownEmail)}
                  />
                </FormField>
              </SpaceBetween>
            </Container>
          </Form>
        </form>
      );
      break;
    case "forgot":
      content = form(
        submitForgot,
        "Reset your password",
        "We send a code to your e-mail address; with it you choose a new password.",
        "Send code",
        <>
          {view.reason && <Alert type="info">{view.reason}</Alert>}
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
        </>,
      );
      break;
    case "forgot-code":
      content = form(
        submitReset,
        "Choose a new password",
        "If an account uses this address, a code is on its way there. It is valid for one hour.",
        "Set password and sign in",
        <>
          <Box variant="p">
            Code sent to <strong>{address()}</strong>. No mail after a few minutes? Check the spam folder, or go back and check the address.
          </Box>
          {codeField("Code from the e-mail", "6 digits.")}
          {newPasswordFields}
        </>,
      );
      break;
    case "new-password":
      content = form(
        submitAnswer,
        "Choose a new password",
        "This is your first sign-in: replace the temporary password with one only you know.",
        "Set password and sign in",
        <>
          {signingInAs}
          {newPasswordFields}
        </>,
      );
      break;
    case "totp-setup":
      content = form(
        submitAnswer,
        "Set up an authenticator app",
        "Your organisation requires a second step at sign-in. Set it up once; from then on you enter a code from the app.",
        "Verify and sign in",
        <>
          {signingInAs}
          <TotpSetup uri={view.uri} secret={view.secret} code={code} onCode={setCode} />
        </>,
      );
      break;
    case "totp-code":
      content = form(
        submitAnswer,
        "Enter your authenticator code",
        "Open your authenticator app and enter the code it shows for Institution Admin.",
        "Sign in",
        <>
          {signingInAs}
          {codeField("Code from your app", "6 digits; a new one every 30 seconds.")}
          <Box variant="small">
            Lost the app or your phone? Ask an administrator of your account to reset your second step; you cannot sign in without it.
          </Box>
        </>,
      );
      break;
    case "email-code":
    case "sms-code":
      content = form(
        submitAnswer,
        "Enter the code we sent",
        `A sign-in code went to ${view.destination ?? (view.kind === "email-code" ? "your e-mail address" : "your phone")}.`,
        "Sign in",
        <>
          {signingInAs}
          {codeField("Code", "6 to 8 digits.")}
        </>,
      );
      break;
    case "select-mfa":
    case "select-mfa-setup":
      content = form(
        submitAnswer,
        view.kind === "select-mfa" ? "How do you confirm it is you?" : "Choose a second step",
        view.kind === "select-mfa"
          ? "You have more than one second step set up: choose one for this sign-in."
          : "Your organisation requires a second step at sign-in: choose one to set up.",
        "Continue",
        <RadioGroup
          value={choice}
          onChange={({ detail }) => setChoice(detail.value)}
          items={view.options.map((o) => ({ value: o, label: MFA_WORDS[o] }))}
          ariaLabel="Second step"
        />,
      );
      break;
    case "email-setup":
      content = form(
        submitAnswer,
        "Confirm your e-mail address for sign-in codes",
        "Sign-in codes will go to this address.",
        "Send code",
        <Box variant="p">
          Codes go to <strong>{address()}</strong>.
        </Box>,
      );
      break;
    case "unsupported":
      content = (
        <SpaceBetween size="m">
          <Header variant="h1">Sign-in cannot continue here</Header>
          <Alert type="warning" header={view.what} action={<Button onClick={startAgain}>Start again</Button>}>
            {view.todo}
          </Alert>
        </SpaceBetween>
      );
      break;
  }

  return (
    <>
      <div id="top-nav">
        <TopNavigation identity={{ href: "/", title: "Institution Admin" }} />
      </div>
      <main style={{ maxWidth: 520, margin: "0 auto", padding: "32px 16px" }}>
        <SpaceBetween size="l">
          {forInvitation && view.kind === "password" && (
            <Alert type="info" header="Sign in to accept your invitation">
              {knownEmail
                ? `Sign in as ${knownEmail}, the address the invitation was sent to. You will accept it on the next page.`
                : "Sign in with the e-mail address the invitation was sent to. You will accept it on the next page."}
            </Alert>
          )}
          {ended && view.kind === "password" && <Alert type="warning">{ended}</Alert>}
          {content}
        </SpaceBetween>
      </main>
    </>
  );
}

const RESET_REQUIRED = "Your password must be reset before you can sign in. We send a code to your e-mail address.";
