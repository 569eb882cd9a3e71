/**
 * The batch jobs' JobStore in IndexedDB, so an interrupted batch survives a reload or a crash.
 * Jobs are stored as they are (IndexedDB clones bigint values).
 */

import type { Job, JobStore } from "../lib/solana/job.ts";

const DB_NAME = "inkwell-solana";
const STORE = "jobs";

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(): Promise<IDBDatabase> {
  const req = indexedDB.open(DB_NAME, 1);
  req.onupgradeneeded = () => {
    if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE, { keyPath: "id" });
  };
  return request(req);
}

async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    const tx = db.transaction(STORE, mode);
    const result = await request(run(tx.objectStore(STORE)));
    // A write counts only once its transaction has committed.
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return result;
  } finally {
    db.close();
  }
}

export function createIndexedDbJobStore(): JobStore {
  return {
    async put(job) {
      await withStore("readwrite", (s) => s.put(job));
    },
    async get(id) {
      const job = await withStore<Job | undefined>("readonly", (s) => s.get(id) as IDBRequest<Job | undefined>);
      return job ?? null;
    },
    async list() {
      return await withStore<Job[]>("readonly", (s) => s.getAll() as IDBRequest<Job[]>);
    },
    async delete(id) {
      await withStore("readwrite", (s) => s.delete(id));
    },
  };
}
