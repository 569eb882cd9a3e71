import { type FormEvent, useRef, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, validate } from "../../lib/forms.ts";

/** A form's schema, or a loader for it (a dynamic import keeps zod off pages until a form is used). */
export type SchemaSource = z.ZodType | (() => Promise<z.ZodType>);

/**
 * Runs the action's own schema before submitting; without JavaScript the server
 * runs the same schema and answers with the same errors.
 *
 * With a loader, the schema (and zod) download when the reader first focuses the
 * form (`onFocus`); a submit before it has arrived goes to the server, which
 * answers with the same errors.
 */
export function useClientValidation(source: SchemaSource) {
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const loaded = useRef<z.ZodType | null>(typeof source === "function" ? null : source);
  const loading = useRef(false);
  const onFocus = () => {
    if (loaded.current || loading.current || typeof source !== "function") return;
    loading.current = true;
    source().then(
      (schema) => {
        loaded.current = schema;
      },
      () => {
        // The server validates anyway; try again on the next focus.
        loading.current = false;
      },
    );
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const schema = typeof source === "function" ? loaded.current : source;
    if (!schema) return;
    const result = validate(schema, new FormData(event.currentTarget));
    if (!result.ok) {
      event.preventDefault();
      setErrors(result.errors);
      const first = event.currentTarget.querySelector<HTMLElement>("[aria-invalid='true'], input:invalid");
      first?.focus();
    } else {
      setErrors(null);
    }
  };
  return { clientErrors: errors, onSubmit, onFocus, clear: () => setErrors(null) };
}
