/**
 * The contract's 422 `{errors: [...]}` are Rails-style full messages ("Contact email is invalid"): each
 * starts with its attribute's name, which places it at its field. What matches no field shows on the form.
 */
export function byField<K extends string>(
  errors: readonly string[],
  labels: Readonly<Record<K, string>>,
): { fields: Partial<Record<K, string>>; rest: string[] } {
  // Longest label first: "Settings auto finalize …" is a settings message, not a "Name" one by accident.
  const order = (Object.entries(labels) as [K, string][]).sort((a, b) => b[1].length - a[1].length);
  const fields: Partial<Record<K, string>> = {};
  const rest: string[] = [];
  for (const message of errors) {
    const hit = order.find(([, label]) => message.toLowerCase().startsWith(`${label.toLowerCase()} `));
    if (hit) fields[hit[0]] = fields[hit[0]] ? `${fields[hit[0]]} ${message}` : message;
    else rest.push(message);
  }
  return { fields, rest };
}

/** After a refused submit, the keyboard (and a screen reader) lands on the first field to correct. */
export function focusFirstInvalid(): void {
  window.setTimeout(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}
