/** An API failure as a plain notice: what happened and what the person can do about it. */
import Alert from "@cloudscape-design/components/alert";
import Button from "@cloudscape-design/components/button";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Header from "@cloudscape-design/components/header";
import type { ReactNode } from "react";
import { ApiError } from "../api";
import { retryText } from "../format";

export function describe(error: unknown): { header: string; text: string } {
  if (!(error instanceof ApiError)) return { header: "Something went wrong", text: (error as Error)?.message ?? String(error) };
  switch (error.status) {
    case 0:
      return { header: "The API cannot be reached", text: error.message };
    case 403:
      return { header: "Access denied", text: `${error.message}. Your role does not allow this.` };
    case 404:
      return { header: "Not found", text: `${error.message}. It may have been deleted, or you have no access to it.` };
    case 409:
      return { header: "Changed at the same time elsewhere", text: `${error.message}.` };
    case 412:
      return {
        header: "Someone else changed this institution",
        text: "It changed after you opened it, so nothing was saved. Reload to see the current version, then make your change again.",
      };
    case 429:
      return { header: "Too many requests", text: `${error.message}. ${retryText(error.retryAt)}` };
    case 502:
    case 503:
    case 504:
      return { header: "A service the API depends on failed", text: `${error.message}. Try again in a moment.` };
    default:
      return error.status >= 500
        ? { header: "The API failed", text: `${error.message} (${error.status}). Try again; if it persists, report it.` }
        : { header: "The request was refused", text: error.message };
  }
}

export function ErrorNotice({ error, onRetry, children }: { error: unknown; onRetry?: () => void; children?: ReactNode }) {
  const { header, text } = describe(error);
  const retryable = !(error instanceof ApiError) || error.status === 0 || error.status === 409 || error.status >= 500;
  return (
    <Alert type="error" header={header} action={onRetry && retryable ? <Button onClick={onRetry}>Try again</Button> : undefined}>
      {text}
      {children && <> {children}</>}
    </Alert>
  );
}

/** True for the API's 403: the page has nothing to show but the notice. */
export const isForbidden = (error: unknown): boolean => error instanceof ApiError && error.status === 403;

/** What a cohort-super-admin page shows instead of its content to anyone else (the API's 403): what is theirs only. */
export function SuperAdminOnly({ title, error, children }: { title: string; error: unknown; children: ReactNode }) {
  return (
    <ContentLayout header={<Header variant="h1">{title}</Header>}>
      <ErrorNotice error={error}>{children}</ErrorNotice>
    </ContentLayout>
  );
}

/** What a page shows instead of its content when the caller may not read it at all. */
export function AuditTrailForbidden({ title, error }: { title: string; error: unknown }) {
  return (
    <SuperAdminOnly title={title} error={error}>
      Reading the audit trail needs the cohort-super-admin status, which an operator grants.
    </SuperAdminOnly>
  );
}
