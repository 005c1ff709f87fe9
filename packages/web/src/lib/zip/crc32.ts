/** CRC-32 (IEEE 802.3, the one ZIP uses), table driven, fed piece by piece while streaming. */
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** A running CRC-32: `update` with each piece, `value` at the end. */
export class Crc32 {
  private crc = 0xffffffff;

  update(bytes: Uint8Array): void {
    let crc = this.crc;
    for (const byte of bytes) crc = (TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
    this.crc = crc;
  }

  get value(): number {
    return (this.crc ^ 0xffffffff) >>> 0;
  }
}

/** The CRC-32 of some bytes at once. */
export function crc32(bytes: Uint8Array): number {
  const crc = new Crc32();
  crc.update(bytes);
  return crc.value;
}
