// A local SMTP server that reads and drops every message, in its own process, for
// `npm run bench:newsletter`: the sender's CPU and memory are then its own. Prints
// `port N` when listening and `received N` on SIGTERM.
import { SMTPServer } from "smtp-server";

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  closeTimeout: 200,
  onData(stream, _session, callback) {
    stream.on("data", () => {});
    stream.on("end", () => {
      received += 1;
      callback();
    });
  },
});
smtp.on("error", () => {});
smtp.listen(0, "127.0.0.1", () => {
  const address = smtp.server.address();
  console.log(`port ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => {
  console.log(`received ${received}`);
  smtp.close(() => process.exit(0));
});
