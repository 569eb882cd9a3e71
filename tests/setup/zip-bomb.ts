import { crc32, deflateRawSync } from "node:zlib";

// Zips that unpack to far more than they weigh, written without ever holding what they unpack
// to more than once: `count` entries that all carry the same deflated run of zeros (one
// compression, reused), as the probe's 1.4 MB zip of 120 files did. A plain zip (no data
// descriptors, no Zip64), which every unzip reads.

export interface BombEntry {
  name: string;
  /** What the entry unpacks to: this many zero bytes. */
  bytes: number;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

/** A zip of the given entries, each a run of zeros deflated at level 9. */
export function zipOfZeros(entries: readonly BombEntry[]): Buffer {
  const deflated = new Map<number, { data: Buffer; crc: number }>();
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    let packed = deflated.get(entry.bytes);
    if (!packed) {
      const zeros = Buffer.alloc(entry.bytes);
      packed = { data: deflateRawSync(zeros, { level: 9 }), crc: crc32(zeros) };
      deflated.set(entry.bytes, packed);
    }
    const name = Buffer.from(entry.name, "utf8");
    const common = [
      u16(20), // version needed
      u16(0x0800), // flags: UTF-8 names
      u16(8), // deflated
      u16(0), // time
      u16(0x21), // date
      u32(packed.crc),
      u32(packed.data.length),
      u32(entry.bytes),
      u16(name.length),
      u16(0), // extra
    ];
    const local = Buffer.concat([u32(0x04034b50), ...common, name]);
    central.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(20), // made by
        ...common,
        u16(0), // comment
        u16(0), // disk
        u16(0), // internal attributes
        u32(0), // external attributes
        u32(offset),
        name,
      ]),
    );
    parts.push(local, packed.data);
    offset += local.length + packed.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(entries.length),
    u16(entries.length),
    u32(directory.length),
    u32(offset),
    u16(0),
  ]);
  return Buffer.concat([...parts, directory, end]);
}
