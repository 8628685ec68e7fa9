/** The confirmation before deleting an institution; the API's refusal (cohorts, role) stays in the dialog. */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Modal from "@cloudscape-design/components/modal";
import SpaceBetween from "@cloudscape-design/components/space-between";
import { client, ok } from "../api";
import { useShell } from "../shell";
import { useSubmit } from "../useSubmit";

export function DeleteInstitution({
  institution,
  onClose,
  onDeleted,
}: {
  institution: { id: string; name: string } | undefined;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { flash } = useShell();
  const { busy, error, submit, reset } = useSubmit();
  const close = () => {
    reset();
    onClose();
  };
  const remove = () =>
    submit(async () => {
      if (!institution) return;
      const { message } = ok(await client.DELETE("/api/v1/institutions/{id}", { params: { path: { id: institution.id } } }));
      flash({ type: "success", content: message });
      onDeleted();
    });
  return (
    <Modal
      visible={institution !== undefined}
      onDismiss={close}
      header="Delete institution"
      closeAriaLabel="Close dialog"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={close}>
              Cancel
            </Button>
            <Button variant="primary" loading={busy} onClick={() => void remove()}>
              Delete
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">
          Delete <strong>{institution?.name}</strong>? Its administrators lose access. This cannot be undone. An institution that still has
          cohorts cannot be deleted.
        </Box>
        {error && (
          <Alert type="error" header={error.header}>
            {error.text}
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
