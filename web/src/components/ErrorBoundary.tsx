/**
 * What a person sees when a page fails to render: a page that says so and offers a reload, never a blank one
 * (React unmounts the whole tree on an error no boundary catches). The error goes to the console with the
 * component stack, for whoever opens the developer tools or collects the browser's logs.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Header from "@cloudscape-design/components/header";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  readonly children: ReactNode;
}

interface State {
  readonly error?: Error;
}

/** Logs a render error with the component stack React gives for it. */
export function logRenderError(error: unknown, info: { componentStack?: string | null | undefined }): void {
  console.error("The console failed to render this page:", error, `\nComponent stack:${info.componentStack ?? " (none)"}`);
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    logRenderError(error, info);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <RenderFailed error={error} />;
  }
}

export function RenderFailed({ error }: { error: Error }) {
  return (
    <ContentLayout header={<Header variant="h1">This page could not be shown</Header>}>
      <Alert
        type="error"
        header="Something went wrong in the console"
        action={
          <Button iconName="refresh" onClick={() => location.reload()}>
            Reload the page
          </Button>
        }
      >
        <SpaceBetween size="xs">
          <span>
            The page stopped with an error before it finished drawing. Reload the page to try again; if this keeps happening, report the
            error below.
          </span>
          <Box variant="code" data-testid="render-error">
            {error.message || error.name}
          </Box>
        </SpaceBetween>
      </Alert>
    </ContentLayout>
  );
}
