import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';

/** A file for `setInputFiles`. */
export interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A small ID-card-like PNG (RGB), different for every `seed` so the "same document twice" rule does not refuse
 * the front and back. Encoded here, no image library needed.
 */
export function idCardPng(seed: number, width = 320, height = 200): FilePayload {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const i = row + 1 + x * 3;
      const stripe = Math.floor((x + seed * 7) / 16) % 2 === 0;
      const border = x < 6 || y < 6 || x >= width - 6 || y >= height - 6;
      raw[i] = border ? 20 : stripe ? (40 + seed * 37) % 256 : 230;
      raw[i + 1] = border ? 60 : (y * 255) / height;
      raw[i + 2] = border ? 120 : (100 + seed * 53) % 256;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return { name: `id-${seed}.png`, mimeType: 'image/png', buffer: png };
}

/** A small ID-card-like JPEG drawn by the browser's canvas encoder (a real JPEG, like a phone photo). */
export async function idCardJpeg(page: Page, label: string): Promise<FilePayload> {
  const base64 = await page.evaluate(async (text) => {
    const canvas = new OffscreenCanvas(400, 250);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#e8eef7';
    g.fillRect(0, 0, 400, 250);
    g.fillStyle = '#1d3c78';
    g.fillRect(0, 0, 400, 48);
    g.fillStyle = '#fff';
    g.font = 'bold 22px sans-serif';
    g.fillText('DRIVER LICENSE', 16, 32);
    g.fillStyle = '#222';
    g.font = '18px sans-serif';
    g.fillText(text, 16, 110);
    g.fillText(`No. ${Math.random().toString(36).slice(2, 10).toUpperCase()}`, 16, 150);
    g.strokeStyle = '#1d3c78';
    g.strokeRect(280, 70, 100, 130);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  }, label);
  return {
    name: `${label.toLowerCase().replace(/\W+/g, '-')}.jpg`,
    mimeType: 'image/jpeg',
    buffer: Buffer.from(base64, 'base64'),
  };
}
