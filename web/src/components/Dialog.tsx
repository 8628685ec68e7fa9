/**
 * What the console's dialogs share: where focus starts, the footer (Cancel, and the action) and the API's
 * refusal inside the dialog.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Form from "@cloudscape-design/components/form";
import Modal, { type ModalProps } from "@cloudscape-design/components/modal";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { type FormEvent, type ReactNode, useEffect, useRef } from "react";

/** What a person can type in or choose with, in the order Tab visits them. */
const FIELD = [
  "input:not([type=hidden]):not([disabled]):not([readonly])",
  "textarea:not([disabled]):not([readonly])",
  "select:not([disabled])",
  // Cloudscape's Select, Multiselect and date pickers: a button that opens a list or a calendar.
  "button[aria-haspopup]:not([disabled])",
  "[role=radio]:not([disabled])",
].join(", ");

/** Marks the button focus starts on in a dialog without a field: its Cancel, the harmless choice. */
const CANCEL = "data-dialog-cancel";

/**
 * Cloudscape's Modal, with focus where a person starts: its first field, so that typing goes into it at once
 * (the Modal itself focuses its first focusable element, the × that closes it). A dialog without a field (a
 * confirmation) starts on its Cancel: Enter or Space then does nothing harmful.
 */
export function Dialog({ children, visible, ...props }: ModalProps & { children: ReactNode }) {
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!visible) return;
    // After the Modal's own focus (its focus lock runs first, being deeper in the tree), and again once the
    // dialog's content has rendered, should it render a moment later (a portal mounts on the next commit).
    const place = () => {
      const root = body.current?.closest<HTMLElement>("[role=dialog]");
      if (!root || !body.current) return false;
      const target = body.current.querySelector<HTMLElement>(FIELD) ?? root.querySelector<HTMLElement>(`[${CANCEL}]`);
      if (!target) return false;
      target.focus();
      return true;
    };
    if (place()) return;
    const frame = requestAnimationFrame(() => place());
    return () => cancelAnimationFrame(frame);
  }, [visible]);
  return (
    <Modal visible={visible} closeAriaLabel="Close dialog" {...props}>
      <div ref={body}>{children}</div>
    </Modal>
  );
}

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
        <Button variant="link" onClick={onCancel} data-dialog-cancel>
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
    <Dialog visible={props.visible} onDismiss={props.onClose} header={props.header}>
      <form onSubmit={submit} noValidate>
        <Form
          errorText={props.errorText}
          errorIconAriaLabel="Error"
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="link" formAction="none" onClick={props.onClose} data-dialog-cancel>
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
    </Dialog>
  );
}
