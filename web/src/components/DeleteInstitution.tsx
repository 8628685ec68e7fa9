/**
 * The confirmation before deleting an institution; the API's refusal (cohorts, role) stays in the dialog.
 * With the `etag` of the version shown, the delete holds only if nobody changed it since (`If-Match`); a 412
 * offers to reload.
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { apiPaths, client, isChangedElsewhere, ok } from "../api";
import { useShell } from "../shell";
import { useSubmit } from "../useSubmit";
import { Dialog, DialogFooter } from "./Dialog";
import { describe } from "./ErrorNotice";

export function DeleteInstitution({
  institution,
  onClose,
  onDeleted,
  onReload,
}: {
  institution: { id: string; name: string; etag?: string | undefined } | undefined;
  onClose: () => void;
  onDeleted: () => void;
  /** Shows the current version (after a 412). */
  onReload?: () => void;
}) {
  const { flash } = useShell();
  const { busy, error, submit, reset } = useSubmit({ explain: (err) => ({ ...describe(err), changed: isChangedElsewhere(err) }) });
  const close = () => {
    reset();
    onClose();
  };
  const remove = () =>
    submit(async () => {
      if (!institution) return;
      const { id, etag } = institution;
      const params = { path: { id }, ...(etag !== undefined && { header: { "If-Match": etag } }) };
      const { message } = ok(await client.DELETE(`${apiPaths.institutions}/{id}`, { params }));
      // Deleted, the institution's page is gone: the message is for the list, where either way ends.
      flash({ type: "success", content: message }, { on: "/institutions" });
      onDeleted();
    });
  return (
    <Dialog
      visible={institution !== undefined}
      onDismiss={close}
      header="Delete institution"
      footer={<DialogFooter action="Delete" busy={busy} onCancel={close} onAction={() => void remove()} />}
    >
      <SpaceBetween size="m">
        <Box variant="p">
          Delete <strong>{institution?.name}</strong>? Its administrators lose access. This cannot be undone. An institution that still has
          cohorts cannot be deleted.
        </Box>
        {error && (
          <Alert
            type={error.changed ? "warning" : "error"}
            header={error.header}
            action={
              error.changed && onReload ? (
                <Button
                  onClick={() => {
                    close();
                    onReload();
                  }}
                >
                  Reload
                </Button>
              ) : undefined
            }
          >
            {error.text}
          </Alert>
        )}
      </SpaceBetween>
    </Dialog>
  );
}
