// node scripts/make-icons.mjs src/web/public
// Writes Leftover's app icons: a green square (the top bar's #198754) with a white upward "L" shape,
// drawn inside the middle 60% so a maskable crop keeps it.
import fs from 'node:fs';
import zlib from 'node:zlib';
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
function png(size) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size); // filter 0, palette index per pixel
    for (let x = 0; x < size; x++) {
      const u = x / size,
        v = y / size;
      const stem = u >= 0.32 && u < 0.44 && v >= 0.25 && v < 0.75;
      const foot = u >= 0.32 && u < 0.7 && v >= 0.63 && v < 0.75;
      row[1 + x] = stem || foot ? 1 : 0;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 3;
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const palette = Buffer.from([0x19, 0x87, 0x54, 0xff, 0xff, 0xff]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('PLTE', palette),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
for (const size of [192, 512]) fs.writeFileSync(`${process.argv[2]}/icon-${size}.png`, png(size));
