import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, validate } from "../../lib/forms.ts";

/**
 * Runs the action's own schema before submitting; without JavaScript the server
 * runs the same schema and answers with the same errors.
 */
export function useClientValidation(schema: z.ZodType) {
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
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
  return { clientErrors: errors, onSubmit, clear: () => setErrors(null) };
}
