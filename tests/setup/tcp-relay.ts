import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpRelay {
  /** The local port; the same after `restore()`. */
  port(): number;
  /** Stops listening and resets every open connection, as a dead service does. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of a service (PostgreSQL, S3…) that can be cut and
 * restored on the same port: the server under test sees the service vanish
 * (connections reset, new ones refused) and come back, while other tests keep
 * using the service directly.
 */
export async function startRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        const address = server?.address();
        if (address && typeof address === "object") port = address.port;
        resolve();
      });
    });
  await listen();
  return {
    port: () => port,
    async cut() {
      const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closing;
    },
    restore: listen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}
