/** What the console's dialogs share: the footer (Cancel, and the action) and the API's refusal inside the dialog. */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Form from "@cloudscape-design/components/form";
import Modal from "@cloudscape-design/components/modal";
import SpaceBetween from "@cloudscape-design/components/space-between";
import type { FormEvent, ReactNode } from "react";

/** The refusal of a dialog's request, in the dialog (`useSubmit`'s `error`); nothing without one. */
export function Refusal({ error }: { error: { header: string; text: string } | undefined }) {
  return error ? (
    <Alert type="error" header={error.header}>
      {error.text}
    </Alert>
  ) : null;
}

/** A dialog's footer: Cancel, and the action. */
export function DialogFooter({
  action,
  busy,
  onCancel,
  onAction,
}: {
  action: string;
  busy: boolean;
  onCancel: () => void;
  onAction: () => void;
}) {
  return (
    <Box float="right">
      <SpaceBetween direction="horizontal" size="xs">
        <Button variant="link" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="primary" loading={busy} onClick={onAction}>
          {action}
        </Button>
      </SpaceBetween>
    </Box>
  );
}

/**
 * A dialog around a form: Enter submits it (a real `<form>`, the browser's own checks off: the API's
 * messages are the ones shown), Cancel closes it, the action is busy while the request runs.
 */
export function FormDialog(props: {
  visible: boolean;
  header: string;
  action: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  /** A refusal shown under the form (Cloudscape's form error), when the dialog does not place it itself. */
  errorText?: string | undefined;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <Modal visible={props.visible} onDismiss={props.onClose} header={props.header} closeAriaLabel="Close dialog">
      <form onSubmit={submit} noValidate>
        <Form
          errorText={props.errorText}
          errorIconAriaLabel="Error"
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="link" formAction="none" onClick={props.onClose}>
                Cancel
              </Button>
              <Button variant="primary" loading={props.busy} formAction="submit">
                {props.action}
              </Button>
            </SpaceBetween>
          }
        >
          {props.children}
        </Form>
      </form>
    </Modal>
  );
}
