/**
 * A Wallet Standard wallet for the browser tests, registered inside the page (addInitScript). It
 * signs with an Ed25519 key the test made (WebCrypto in the page), so the test knows its address.
 * Runs in the browser: no imports, only the argument.
 */
export interface TestWalletInput {
  name: string;
  address: string;
  publicKey: number[];
  pkcs8: number[];
}

export function registerTestWallet(input: TestWalletInput): void {
  const chains = ["solana:mainnet", "solana:devnet", "solana:localnet"] as const;
  const account = {
    address: input.address,
    publicKey: new Uint8Array(input.publicKey),
    chains,
    features: ["solana:signTransaction", "solana:signMessage"],
  };
  const connectedKey = `test-wallet-connected:${input.name}`;
  const listeners = new Set<(p: { accounts?: unknown[] }) => void>();
  let accounts: (typeof account)[] = [];
  const keyPromise = crypto.subtle.importKey("pkcs8", new Uint8Array(input.pkcs8), { name: "Ed25519" }, false, [
    "sign",
  ]);
  const sign = async (bytes: Uint8Array) =>
    new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, await keyPromise, bytes as Uint8Array<ArrayBuffer>));
  const setAccounts = (next: (typeof account)[]) => {
    accounts = next;
    for (const l of listeners) l({ accounts });
  };
  const wallet = {
    version: "1.0.0" as const,
    name: input.name,
    icon: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
    chains,
    get accounts() {
      return accounts;
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        connect: async (opts?: { silent?: boolean }) => {
          if (opts?.silent && localStorage.getItem(connectedKey) !== "1") return { accounts: [] };
          localStorage.setItem(connectedKey, "1");
          setAccounts([account]);
          return { accounts };
        },
      },
      "standard:disconnect": {
        version: "1.0.0",
        disconnect: async () => {
          localStorage.removeItem(connectedKey);
          setAccounts([]);
        },
      },
      "standard:events": {
        version: "1.0.0",
        on: (_event: "change", listener: (p: { accounts?: unknown[] }) => void) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      "solana:signTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signTransaction: async (...inputs: { transaction: Uint8Array }[]) => {
          (window as unknown as { __walletPrompts: number }).__walletPrompts =
            ((window as unknown as { __walletPrompts?: number }).__walletPrompts ?? 0) + 1;
          return Promise.all(
            inputs.map(async ({ transaction }) => {
              // One signature slot (the fee payer, this wallet): [count=1][64 bytes][message].
              if (transaction[0] !== 1) throw new Error("test wallet signs single-signer transactions only");
              const out = new Uint8Array(transaction);
              out.set(await sign(transaction.subarray(65)), 1);
              return { signedTransaction: out };
            }),
          );
        },
      },
      "solana:signMessage": {
        version: "1.0.0",
        signMessage: async (...inputs: { message: Uint8Array }[]) =>
          Promise.all(inputs.map(async ({ message }) => ({ signedMessage: message, signature: await sign(message) }))),
      },
    },
  };
  const callback = ({ register }: { register: (w: unknown) => unknown }) => register(wallet);
  window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: callback }));
  window.addEventListener("wallet-standard:app-ready", (event) => {
    callback((event as CustomEvent<{ register: (w: unknown) => unknown }>).detail);
  });
}
