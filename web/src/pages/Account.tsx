/**
 * Your account (docs/console-sign-in.md): who you are to the service (name, which you may change; e-mail, account and
 * groups, which an administrator sets; your role in each institution), your password, your authenticator
 * app where MFA is optional, and signing out everywhere.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Container from "@cloudscape-design/components/container";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Form from "@cloudscape-design/components/form";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import KeyValuePairs from "@cloudscape-design/components/key-value-pairs";
import Link from "@cloudscape-design/components/link";
import SpaceBetween from "@cloudscape-design/components/space-between";
import StatusIndicator from "@cloudscape-design/components/status-indicator";
import { type FormEvent, useState } from "react";
import { apiPaths, client, ok } from "../api";
import { PASSWORD_POLICY } from "../auth/policy";
import { useSession } from "../auth/session";
import { signOut } from "../auth/signOut";
import { ErrorNotice } from "../components/ErrorNotice";
import { RolesSection } from "../components/RolesHelp";
import { TotpSetup } from "../components/TotpSetup";
import { getConfig } from "../config";
import { roleLabel } from "../format";
import { follow } from "../router";
import { usePage, useShell } from "../shell";
import { useApi } from "../useApi";

const loadCognito = () => import("../auth/cognito");

/** Runs one action with its own busy flag and error, as each section of the page has. */
function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (action: (cognito: Awaited<ReturnType<typeof loadCognito>>) => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    const cognito = await loadCognito();
    try {
      await action(cognito);
      return true;
    } catch (err) {
      setError(cognito.signInMessage(err, "account"));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

export default function Account() {
  usePage("Your account", [{ text: "Your account", href: "/account" }]);
  const session = useSession();
  const { flash } = useShell();
  const account = useApi("cognito:account", () => loadCognito().then((c) => c.loadAccount()));
  const institutions = useApi(apiPaths.institutions, async (signal) => ok(await client.GET(apiPaths.institutions, { signal })));

  const [name, setName] = useState<string>();
  const nameAction = useAction();
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const passwordAction = useAction();
  const [totp, setTotp] = useState<{ secret: string; uri: string }>();
  const [code, setCode] = useState("");
  const totpAction = useAction();
  const everywhereAction = useAction();

  const data = account.data;
  const shownName = name ?? data?.name ?? session?.name ?? "";
  const mfaRequired = getConfig().mfa === "required";
  const groups = session?.superAdmin ? ["cohort_super_admin"] : [];

  const saveName = (e: FormEvent) => {
    e.preventDefault();
    const value = shownName.trim();
    if (value === "" || [...value].length > 128 || /[\p{Cc}\p{Cf}\u2028\u2029]/u.test(value)) {
      nameAction.setError("Enter a name of 1 to 128 characters on one line.");
      return;
    }
    void nameAction.run(async (cognito) => {
      await cognito.changeName(value);
      flash({ type: "success", content: "Your name is changed." });
    });
  };

  const savePassword = (e: FormEvent) => {
    e.preventDefault();
    if (!oldPassword || !newPassword) {
      passwordAction.setError("Enter your current password and a new one.");
      return;
    }
    if (newPassword !== confirm) {
      passwordAction.setError("The two new passwords differ.");
      return;
    }
    void passwordAction.run(async (cognito) => {
      await cognito.changePassword(oldPassword, newPassword);
      setOldPassword("");
      setNewPassword("");
      setConfirm("");
      flash({ type: "success", content: "Your password is changed. Other browsers stay signed in until you sign out everywhere." });
    });
  };

  const startTotp = () =>
    void totpAction.run(async (cognito) => {
      setTotp(await cognito.startTotp(data?.email ?? session?.email ?? ""));
      setCode("");
    });

  const confirmTotp = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      totpAction.setError("Enter the 6-digit code from your app.");
      return;
    }
    void totpAction.run(async (cognito) => {
      await cognito.confirmTotp(code);
      // The service makes it the second step and records it (mfa_enabled).
      ok(await client.PUT(`${apiPaths.me}/mfa`, { body: { mfa: { totp: true } } }));
      setTotp(undefined);
      account.reload();
      flash({ type: "success", content: "Your authenticator app is on: each sign-in now asks for a code from it." });
    });
  };

  const disableTotp = () =>
    void totpAction.run(async () => {
      ok(await client.PUT(`${apiPaths.me}/mfa`, { body: { mfa: { totp: false } } }));
      account.reload();
      flash({ type: "success", content: "Your authenticator app is off: sign-in asks for your password only." });
    });

  const everywhere = () => void everywhereAction.run(() => signOut(true));

  return (
    <ContentLayout header={<Header variant="h1">Your account</Header>}>
      <SpaceBetween size="l">
        {account.error !== undefined && <ErrorNotice error={account.error} onRetry={account.reload} />}
        <Container header={<Header variant="h2">Who you are</Header>}>
          <KeyValuePairs
            columns={3}
            items={[
              { label: "E-mail address", value: data?.email ?? session?.email ?? "" },
              { label: "Account", value: data?.accountId || "–" },
              {
                label: "Groups",
                value: groups.length > 0 ? `${groups.join(", ")} (the cohort-super-admin status)` : "None",
              },
            ]}
          />
          <Box variant="small" color="text-body-secondary" padding={{ top: "s" }}>
            Your e-mail address, account and groups are set by an administrator.
          </Box>
        </Container>

        <form onSubmit={saveName} noValidate>
          <Form
            header={<Header variant="h2">Name</Header>}
            errorText={nameAction.error}
            errorIconAriaLabel="Error"
            actions={
              <Button variant="primary" formAction="submit" loading={nameAction.busy}>
                Save name
              </Button>
            }
          >
            <Container>
              <FormField label="Name" description="Shown to other administrators and in the security events.">
                <Input value={shownName} onChange={({ detail }) => setName(detail.value)} autoComplete="name" />
              </FormField>
            </Container>
          </Form>
        </form>

        <Container header={<Header variant="h2">Your institutions</Header>}>
          {institutions.error !== undefined ? (
            <ErrorNotice error={institutions.error} onRetry={institutions.reload} />
          ) : institutions.data ? (
            institutions.data.institutions.length === 0 ? (
              <Box variant="p">You administer no institution yet. An invitation to one gives you access.</Box>
            ) : (
              <KeyValuePairs
                columns={2}
                items={institutions.data.institutions.map((i) => ({
                  label: i.name,
                  value: (
                    <span>
                      <Link href={`/institutions/${encodeURIComponent(i.id)}`} onFollow={follow}>
                        {roleLabel(i.role)}
                      </Link>
                      {i.is_super_admin ? " · the institution's super admin" : ""}
                    </span>
                  ),
                }))}
              />
            )
          ) : (
            <StatusIndicator type="loading">Loading your institutions</StatusIndicator>
          )}
        </Container>

        <RolesSection />

        <form onSubmit={savePassword} noValidate>
          <Form
            header={<Header variant="h2">Change password</Header>}
            errorText={passwordAction.error}
            errorIconAriaLabel="Error"
            actions={
              <Button variant="primary" formAction="submit" loading={passwordAction.busy}>
                Change password
              </Button>
            }
          >
            <Container>
              <SpaceBetween size="m">
                <FormField label="Current password">
                  <Input
                    type="password"
                    autoComplete="current-password"
                    value={oldPassword}
                    onChange={({ detail }) => setOldPassword(detail.value)}
                  />
                </FormField>
                <FormField label="New password" constraintText={PASSWORD_POLICY}>
                  <Input
                    type="password"
                    autoComplete="new-password"
                    value={newPassword}
                    onChange={({ detail }) => setNewPassword(detail.value)}
                  />
                </FormField>
                <FormField label="Repeat the new password">
                  <Input type="password" autoComplete="new-password" value={confirm} onChange={({ detail }) => setConfirm(detail.value)} />
                </FormField>
              </SpaceBetween>
            </Container>
          </Form>
        </form>

        <Container
          header={
            <Header variant="h2" description="A code from an app on your phone at each sign-in, besides your password.">
              Authenticator app (TOTP)
            </Header>
          }
        >
          <SpaceBetween size="m">
            {totpAction.error && <Alert type="error">{totpAction.error}</Alert>}
            {data && (
              <StatusIndicator type={data.totp === "on" ? "success" : "stopped"}>
                <span data-testid="totp-status">{data.totp === "on" ? "On" : "Off"}</span>
              </StatusIndicator>
            )}
            {totp ? (
              <form onSubmit={confirmTotp} noValidate>
                <SpaceBetween size="m">
                  <TotpSetup uri={totp.uri} secret={totp.secret} code={code} onCode={setCode} />
                  <SpaceBetween direction="horizontal" size="xs">
                    <Button formAction="none" variant="link" onClick={() => setTotp(undefined)}>
                      Cancel
                    </Button>
                    <Button variant="primary" formAction="submit" loading={totpAction.busy}>
                      Verify and turn on
                    </Button>
                  </SpaceBetween>
                </SpaceBetween>
              </form>
            ) : data?.totp === "on" ? (
              mfaRequired ? (
                <Box variant="p">This environment requires a second step: it stays on.</Box>
              ) : (
                <Button onClick={disableTotp} loading={totpAction.busy}>
                  Turn off
                </Button>
              )
            ) : (
              data && (
                <Button onClick={startTotp} loading={totpAction.busy}>
                  Set up authenticator app
                </Button>
              )
            )}
          </SpaceBetween>
        </Container>

        <Container
          header={
            <Header
              variant="h2"
              description="Ends every session of yours: in this browser and in every other one. Each must sign in again within the hour its last token lasts."
            >
              Sign out everywhere
            </Header>
          }
        >
          <SpaceBetween size="s">
            {everywhereAction.error && <Alert type="error">{everywhereAction.error}</Alert>}
            <Button onClick={everywhere} loading={everywhereAction.busy}>
              Sign out everywhere
            </Button>
          </SpaceBetween>
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
