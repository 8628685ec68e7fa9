/**
 * Sign-in, e-mail first (docs/console-sign-in.md): the address is asked for, then home-realm discovery says whether
 * its institution signs it in (single sign-on, docs/sso.md: "Continue with <institution>", or the password instead)
 * or the password is next. With the Cognito user pool, every challenge the pool can send: a first sign-in's
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
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { apiPaths, client, ok } from "../api";
import type { MfaChoice, Stage, Step } from "../auth/cognito";
import { PASSWORD_POLICY } from "../auth/policy";
import { sessionEndReason } from "../auth/session";
import type { Discovered } from "../auth/sso";
import { SignedOutBar } from "../components/SignedOutBar";
import { TotpSetup } from "../components/TotpSetup";
import { ACCEPT_PATH } from "../invitation";
import { useLocation } from "../router";
import { continueWith, IDENTITY_PROVIDER } from "../terms";

/**
 * Where the page is: the e-mail first; then the institution's single sign-on (`sso`) or the password; recovery;
 * or a challenge Cognito sent.
 */
type View =
  | { kind: "email" }
  | { kind: "sso"; sso: Discovered }
  | { kind: "password" }
  | { kind: "forgot"; reason?: string }
  | { kind: "forgot-code" }
  | Exclude<Step, { kind: "signed-in" }>;

const loadCognito = () => import("../auth/cognito");
const loadSso = () => import("../auth/sso");

/** The institution that signs `email` in, or null; null too when discovery cannot answer (the password stays open). */
async function discover(email: string): Promise<Discovered | null> {
  try {
    return ok(await client.POST(apiPaths.ssoDiscover, { body: { email } })).sso;
  } catch {
    return null;
  }
}

const looksLikeEmail = (value: string) => /^[^@\s]+@[^@\s]+$/.test(value.trim());

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
  // An address known already (an invitation's, or a new account's) skips the e-mail step.
  const [view, setView] = useState<View>(prefill || knownEmail ? { kind: "password" } : { kind: "email" });
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
  /** What discovery answered, and for which address. */
  const [found, setFound] = useState<{ email: string; sso: Discovered | null }>();
  const ended = sessionEndReason();
  const forInvitation = pathname.replace(/\/+$/, "") === ACCEPT_PATH;

  useEffect(() => {
    document.title = "Sign in · Institution Admin";
  }, []);

  // Amplify (about 40 kB gzipped) once a password is asked for, while the person types it, so the click does
  // not wait for it; the e-mail step and a single sign-on never need it here.
  const needsCognito = view.kind !== "email" && view.kind !== "sso";
  useEffect(() => {
    if (needsCognito) void loadCognito();
  }, [needsCognito]);

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

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the first render's prefill or address.
  useEffect(() => {
    if (prefill) run("password", (cognito) => cognito.signIn(prefill.email.trim().toLowerCase(), prefill.password));
    else if (knownEmail) {
      // The password step shows at once; an institution that signs this address in is offered beside it.
      const known = knownEmail.trim().toLowerCase();
      void discover(known).then((sso) => setFound({ email: known, sso }));
    }
  }, []);

  /** The e-mail step: which way this address signs in. */
  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    if (!looksLikeEmail(email)) {
      setError("Enter the e-mail address you sign in with.");
      return;
    }
    const asked = address();
    setBusy(true);
    setError(undefined);
    void discover(asked).then((sso) => {
      setFound({ email: asked, sso });
      setBusy(false);
      show(sso ? { kind: "sso", sso } : { kind: "password" });
    });
  };

  /** Off to the managed login, which sends the person on to their institution's identity provider. */
  const continueSso = (sso: Discovered) => {
    setBusy(true);
    setError(undefined);
    loadSso()
      .then(({ startSignIn }) => startSignIn(sso))
      .catch((err: unknown) => {
        setBusy(false);
        setError(`Single sign-on cannot start here: ${(err as Error).message}. Try again, or sign in with a password.`);
      });
  };

  // The institution discovery named for the address now typed, if any.
  const offered = found?.sso && found.email === address() ? found.sso : undefined;
  useEffect(() => {
    // Fetched while the person reads the page, so "Continue with …" does not wait for it.
    if (offered) void loadSso();
  }, [offered]);

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
    if (!looksLikeEmail(email)) {
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
    show(email.trim() === "" ? { kind: "email" } : { kind: "password" });
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

  const forgotButton = (
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
  );

  // The password step opens on the password when the address is there already (given, or typed a step before).
  const addressGiven = Boolean(knownEmail) || email.trim() !== "";
  let content: ReactNode;
  switch (view.kind) {
    case "email":
      content = (
        <form onSubmit={submitEmail} noValidate>
          <Form
            header={<Header variant="h1">Sign in</Header>}
            errorText={error}
            errorIconAriaLabel="Error"
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                {forgotButton}
                <Button variant="primary" loading={busy} formAction="submit">
                  Continue
                </Button>
              </SpaceBetween>
            }
          >
            <Container>
              <FormField label="E-mail address" description="If your institution signs you in with its own account, we take you there.">
                <Input
                  type="email"
                  inputMode="email"
                  autoComplete="username"
                  value={email}
                  onChange={({ detail }) => setEmail(detail.value)}
                  autoFocus
                />
              </FormField>
            </Container>
          </Form>
        </form>
      );
      break;
    case "sso":
      content = (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            continueSso(view.sso);
          }}
          noValidate
        >
          <Form
            header={<Header variant="h1">Sign in</Header>}
            errorText={error}
            errorIconAriaLabel="Error"
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" formAction="none" onClick={() => show({ kind: "password" })}>
                  Sign in with a password instead
                </Button>
                <Button variant="primary" loading={busy} formAction="submit" data-testid="sso-continue">
                  {continueWith(view.sso.institution.name)}
                </Button>
              </SpaceBetween>
            }
          >
            <Container>
              <SpaceBetween size="s">
                <Box variant="p">
                  Signing in as <strong>{address()}</strong>.{" "}
                  <Button
                    variant="inline-link"
                    formAction="none"
                    onClick={() => show({ kind: "email" })}
                    ariaLabel="Change the e-mail address"
                  >
                    Change
                  </Button>
                </Box>
                <Box variant="p">
                  {view.sso.institution.name} signs you in with its own account, on its {IDENTITY_PROVIDER}'s page. You come back here
                  afterwards.
                </Box>
              </SpaceBetween>
            </Container>
          </Form>
        </form>
      );
      break;
    case "password":
      content = (
        <form onSubmit={submitPassword} noValidate>
          <Form
            header={<Header variant="h1">Sign in</Header>}
            errorText={error}
            errorIconAriaLabel="Error"
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                {forgotButton}
                <Button variant="primary" loading={busy} formAction="submit">
                  Sign in
                </Button>
              </SpaceBetween>
            }
          >
            <Container>
              <SpaceBetween size="m">
                {offered && (
                  <Alert
                    type="info"
                    header={`${offered.institution.name} signs this address in`}
                    action={
                      <Button formAction="none" loading={busy} onClick={() => continueSso(offered)}>
                        {continueWith(offered.institution.name)}
                      </Button>
                    }
                  >
                    With its own account, on its {IDENTITY_PROVIDER}'s page; or sign in with your password here.
                  </Alert>
                )}
                <FormField label="E-mail address">
                  <Input
                    type="email"
                    inputMode="email"
                    autoComplete="username"
                    value={email}
                    onChange={({ detail }) => setEmail(detail.value)}
                    autoFocus={!addressGiven}
                  />
                </FormField>
                <FormField label="Password">
                  <Input
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={({ detail }) => setPassword(detail.value)}
                    autoFocus={addressGiven}
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

  // The steps before any challenge: where the page's notices (an invitation, an ended session) belong.
  const start = view.kind === "email" || view.kind === "sso" || view.kind === "password";
  return (
    <>
      <SignedOutBar />
      <main style={{ maxWidth: 520, margin: "0 auto", padding: "32px 16px" }}>
        <SpaceBetween size="l">
          {forInvitation && start && (
            <Alert type="info" header="Sign in to accept your invitation">
              {knownEmail
                ? `Sign in as ${knownEmail}, the address the invitation was sent to. You will accept it on the next page.`
                : "Sign in with the e-mail address the invitation was sent to. You will accept it on the next page."}
            </Alert>
          )}
          {ended && start && <Alert type="warning">{ended}</Alert>}
          {content}
        </SpaceBetween>
      </main>
    </>
  );
}

const RESET_REQUIRED = "Your password must be reset before you can sign in. We send a code to your e-mail address.";
