/**
 * Where the pool's managed login sends a single sign-on back (`/sso/callback?code=…&state=…`, or `?error=…`):
 * the code is exchanged and the person lands on the page they started from, or the error is said plainly
 * with the way back to sign-in. A linked identity's first sign-in, which Cognito fails once, is retried at once.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Header from "@cloudscape-design/components/header";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Spinner from "@cloudscape-design/components/spinner";
import { useEffect, useRef, useState } from "react";
import { SSO_CALLBACK_PATH } from "../auth/callback";
import { SignedOutBar } from "../components/SignedOutBar";
import { navigate } from "../router";

type State = { kind: "working" } | { kind: "failed"; message: string; institution?: string | undefined };

export default function SsoCallback() {
  const [state, setState] = useState<State>({ kind: "working" });
  const started = useRef(false);

  useEffect(() => {
    document.title = "Signing in · Institution Admin";
    if (started.current) return;
    started.current = true;
    const url = new URL(location.href);
    // The code leaves the address bar (and the history) at once; it is good for one exchange only anyway.
    history.replaceState(null, "", SSO_CALLBACK_PATH);
    void (async () => {
      try {
        const { completeSignIn } = await import("../auth/sso");
        const outcome = await completeSignIn(url);
        if (outcome.kind === "signed-in") navigate(outcome.returnTo, { replace: true });
        else if (outcome.kind === "failed") setState(outcome);
        // "retrying": the browser is on its way to the managed login again.
      } catch (err) {
        setState({ kind: "failed", message: (err as Error).message || "The sign-in could not be completed." });
      }
    })();
  }, []);

  return (
    <>
      <SignedOutBar />
      <main style={{ maxWidth: 520, margin: "0 auto", padding: "32px 16px" }}>
        {state.kind === "working" ? (
          <SpaceBetween size="m">
            <Header variant="h1">Signing you in</Header>
            <Box>
              <Spinner /> Completing the sign-in with your institution…
            </Box>
          </SpaceBetween>
        ) : (
          <SpaceBetween size="m">
            <Header variant="h1">Sign-in did not complete</Header>
            <Alert
              type="error"
              header={state.institution ? `Signing in with ${state.institution} did not complete` : "Single sign-on did not complete"}
              action={<Button onClick={() => navigate("/", { replace: true })}>Back to sign in</Button>}
            >
              <span data-testid="sso-error">{state.message}</span>
            </Alert>
          </SpaceBetween>
        )}
      </main>
    </>
  );
}
