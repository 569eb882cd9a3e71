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
 * form (`onFocus`). A submit that comes before it has arrived waits for it, is
 * checked, and goes on by itself when the fields are fine; should the download
 * fail, the form is sent and the server checks it.
 */
export function useClientValidation(source: SchemaSource) {
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const loaded = useRef<z.ZodType | null>(typeof source === "function" ? null : source);
  const pending = useRef<Promise<z.ZodType | null> | null>(null);
  const unavailable = useRef(false);

  const load = (): Promise<z.ZodType | null> => {
    if (loaded.current) return Promise.resolve(loaded.current);
    if (typeof source !== "function") return Promise.resolve(source);
    pending.current ??= source().then(
      (schema) => {
        loaded.current = schema;
        return schema;
      },
      () => {
        // The server validates anyway; a later focus tries the download again.
        pending.current = null;
        unavailable.current = true;
        return null;
      },
    );
    return pending.current;
  };

  const onFocus = () => {
    void load();
  };

  const check = (form: HTMLFormElement, schema: z.ZodType): boolean => {
    const result = validate(schema, new FormData(form));
    if (result.ok) {
      setErrors(null);
      return true;
    }
    setErrors(result.errors);
    form.querySelector<HTMLElement>("[aria-invalid='true'], input:invalid")?.focus();
    return false;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const schema = loaded.current;
    if (schema) {
      if (!check(form, schema)) event.preventDefault();
      return;
    }
    if (unavailable.current) {
      // The schema could not be loaded: this submit goes to the server as it is.
      unavailable.current = false;
      return;
    }
    // Not here yet: hold the submit, check once it arrives, then send it again.
    event.preventDefault();
    const native = event.nativeEvent as SubmitEvent;
    const submitter =
      native.submitter instanceof HTMLButtonElement || native.submitter instanceof HTMLInputElement
        ? native.submitter
        : null;
    void load().then((arrived) => {
      if (arrived && !check(form, arrived)) return;
      if (!form.isConnected) return;
      form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
    });
  };

  return { clientErrors: errors, onSubmit, onFocus, clear: () => setErrors(null) };
}
