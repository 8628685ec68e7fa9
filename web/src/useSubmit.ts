/**
 * A form's submit: busy while the request runs, the contract's 422 messages at their fields (the keyboard
 * lands on the first), anything else in words for the form. One shape for every form of the console.
 */
import { useCallback, useRef, useState } from "react";
import { ApiError } from "./api";
import { describe } from "./components/ErrorNotice";
import { byField, focusFirstInvalid } from "./fieldErrors";

export type Described = ReturnType<typeof describe>;

export interface SubmitOptions<K extends string, E> {
  /**
   * Where a 422's messages go: one field's name (all of them are about it), or each field's label, which
   * places each message at its field (fieldErrors.ts); what matches no field goes to `error`. Without it a
   * 422 is explained like any other refusal.
   */
  readonly fields?: K | Readonly<Record<K, string>>;
  /**
   * For messages that start with no field's label ("Metadata has no signing certificate"): the field they are
   * about, or undefined to leave them on the form.
   */
  readonly route?: (message: string) => K | undefined;
  /** The error in this form's words; `describe` when not given. */
  readonly explain?: (err: unknown) => E;
}

export interface Submit<K extends string, E> {
  readonly busy: boolean;
  /** A 422's messages, by field. */
  readonly fieldErrors: Partial<Record<K, string>>;
  /** What the form shows above its buttons. */
  readonly error: E | undefined;
  /** Runs the request: clears what a previous attempt showed, then places its failure. */
  submit(action: () => Promise<void>): Promise<void>;
  /** Forgets what a previous attempt showed (the dialog closes). */
  reset(): void;
}

export function useSubmit<K extends string = never, E = Described>(options: SubmitOptions<K, E> = {}): Submit<K, E> {
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<K, string>>>({});
  const [error, setError] = useState<E>();
  // The options of the latest render (they close over the form's state).
  const latest = useRef(options);
  latest.current = options;

  const reset = useCallback(() => {
    setFieldErrors({});
    setError(undefined);
  }, []);

  const submit = useCallback(
    async (action: () => Promise<void>) => {
      const { fields, route, explain = describe as (err: unknown) => E } = latest.current;
      setBusy(true);
      reset();
      try {
        await action();
      } catch (err) {
        if (fields !== undefined && err instanceof ApiError && err.status === 422 && err.errors.length > 0) {
          if (typeof fields === "string") setFieldErrors({ [fields]: err.errors.join(" ") } as Partial<Record<K, string>>);
          else {
            const placed = byField(err.errors, fields);
            if (route) {
              const rest: string[] = [];
              for (const message of placed.rest) {
                const field = route(message);
                if (field === undefined) rest.push(message);
                else placed.fields[field] = placed.fields[field] ? `${placed.fields[field]} ${message}` : message;
              }
              placed.rest = rest;
            }
            setFieldErrors(placed.fields);
            if (placed.rest.length > 0) setError({ header: "Check the form", text: placed.rest.join(" ") } as E);
          }
          focusFirstInvalid();
        } else setError(explain(err));
      } finally {
        setBusy(false);
      }
    },
    [reset],
  );

  return { busy, fieldErrors, error, submit, reset };
}
