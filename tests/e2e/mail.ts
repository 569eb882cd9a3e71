import { type CapturedMail, linkIn, waitForMail } from "../setup/mail-capture.ts";

const api = () => {
  const url = process.env.E2E_MAIL_API;
  if (!url) throw new Error("E2E_MAIL_API is not set: run the browser tests with `npm run test:e2e`");
  return url;
};

export function mailTo(to: string, subject: RegExp, after?: number): Promise<CapturedMail> {
  return waitForMail(api(), to, subject, { after });
}

export { linkIn };

let counter = 0;
/** A unique address per call, so tests never share accounts. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${process.pid}-${counter}@example.test`;
}
