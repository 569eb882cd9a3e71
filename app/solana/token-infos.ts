import { type Address, getBase64Encoder } from "@solana/kit";
import { useEffect, useState } from "react";
import {
  decodeMetaplexNames,
  METAPLEX_METADATA_PROGRAM,
  metaplexMetadataAddress,
  type TokenInfo,
  token2022Names,
} from "../lib/solana/token-metadata.ts";
import type { SolanaRpc } from "./rpc.ts";

const CHUNK = 100;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/**
 * Decimals, name and symbol of each mint, in two reads per 100 mints: the mints themselves
 * (jsonParsed: decimals and any Token-2022 metadata), then the Metaplex metadata accounts
 * of those without. A mint the RPC does not describe is left out.
 */
export async function loadTokenInfos(rpc: SolanaRpc, mints: readonly Address[]): Promise<Map<Address, TokenInfo>> {
  const infos = new Map<Address, TokenInfo>();
  const unique = [...new Set(mints)];
  for (const chunk of chunks(unique)) {
    const { value } = await rpc.getMultipleAccounts(chunk, { encoding: "jsonParsed" }).send();
    for (const [i, mint] of chunk.entries()) {
      const data = value[i]?.data as { parsed?: { type?: string; info?: Record<string, unknown> } } | undefined;
      const info = data?.parsed?.type === "mint" ? data.parsed.info : undefined;
      if (!info || typeof info.decimals !== "number") continue;
      infos.set(mint, { decimals: info.decimals, names: token2022Names(info.extensions) });
    }
  }
  const unnamed = [...infos].filter(([, info]) => info.names === null).map(([mint]) => mint);
  const bytes = getBase64Encoder();
  for (const chunk of chunks(unnamed)) {
    const addresses = await Promise.all(chunk.map(metaplexMetadataAddress));
    const { value } = await rpc.getMultipleAccounts(addresses, { encoding: "base64" }).send();
    for (const [i, mint] of chunk.entries()) {
      const account = value[i];
      const info = infos.get(mint);
      if (!account || !info || account.owner !== METAPLEX_METADATA_PROGRAM) continue;
      const names = decodeMetaplexNames(new Uint8Array(bytes.encode(account.data[0])), mint);
      if (names) infos.set(mint, { ...info, names });
    }
  }
  return infos;
}

/** The infos of the given mints, loaded once per list of mints; empty until (or if never) known. */
export function useTokenInfos(rpc: SolanaRpc, mints: readonly Address[]): ReadonlyMap<Address, TokenInfo> {
  const [infos, setInfos] = useState<ReadonlyMap<Address, TokenInfo>>(new Map());
  const key = [...new Set(mints)].sort().join(",");
  useEffect(() => {
    if (key === "") return;
    let current = true;
    loadTokenInfos(rpc, key.split(",") as Address[])
      .then((loaded) => {
        if (current) setInfos(loaded);
      })
      // Names are a courtesy: without them the short mint and raw amount stay.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [rpc, key]);
  return infos;
}
