import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { StepRoutes } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/context.js';
import { prepareStepDocuments } from '../signing/prepare-step-documents.js';
import { buildSignServer } from '../signing/sign-server.js';
import { multipartFile, seedLinkWithSteps } from '../../../test/support/signing-fixtures.js';

/** Issue 11, finding 2: image decompression bombs are refused from the header, before any decode. */
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A PNG whose header declares width×height (RGB), with a tiny compressed first row: what a bomb looks like. */
function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(Math.min(width * 3 + 1, 1 << 20)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let t: Awaited<ReturnType<typeof createTestApp>>;
let sign: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MAX_MB: '2' });
  sign = await buildSignServer(t.ctx);
  await sign.ready();
});
afterAll(async () => {
  await sign?.close();
  await t?.close();
});

async function tokenFor(route: string): Promise<string> {
  const seeded = await seedLinkWithSteps(t.ctx.db, {});
  await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: seeded.linkId }));
  const r = await t.ctx.db.query<{ document_url: string }>(
    'select document_url from link_step where link_id = $1 and route_path = $2',
    [seeded.linkId, route],
  );
  return r.rows[0]!.document_url.split('/s/')[1]!;
}

describe('image decompression bombs', () => {
  it('an ID upload declaring 14000×14000 pixels is refused with 413 and a message', async () => {
    const token = await tokenFor(StepRoutes.patientId);
    const bomb = pngDeclaring(14000, 14000);
    expect(bomb.length).toBeLessThan(100_000);
    const { body, contentType } = multipartFile('id.png', 'image/png', bomb);
    const r = await sign.inject({
      method: 'POST',
      url: `/s/${token}/files?side=front`,
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toBe('upload_too_many_pixels');
    expect(r.json().message).toMatch(/40 megapixels/);
  });

  it('a drawn signature declaring a huge canvas is refused like a missing signature', async () => {
    const token = await tokenFor(StepRoutes.invoice);
    const page = await sign.inject({ method: 'GET', url: `/s/${token}` });
    const { documentSha256 } = JSON.parse(
      /<script type="application\/json" id="sign-config">(.*?)<\/script>/s.exec(page.body)![1]!,
    ) as { documentSha256: string };
    const r = await sign.inject({
      method: 'POST',
      url: `/s/${token}/complete`,
      payload: {
        signerName: 'Ana Diaz',
        method: 'draw',
        signatureDataUrl: `data:image/png;base64,${pngDeclaring(20000, 20000).toString('base64')}`,
        documentSha256,
      },
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().error).toBe('bad_signature');
    const done = await t.ctx.db.query(`select 1 from submission where status = 'completed'`);
    expect(done.rowCount).toBe(0);
  });
});
