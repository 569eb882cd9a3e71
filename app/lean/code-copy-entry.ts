// The inline script app pages carry (app/root.tsx): the copy buttons, without the rest of the
// reader script. Compiled on its own by build-tools/reader-script.ts.
import { codeCopy } from "./code-copy.ts";

codeCopy(document);
