import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from '../../../../e2e/support/stand-ins/s3.js';
import { loadConfig } from '../../src/config.js';
import { loadStorage } from '../../src/providers/storage/load-storage.js';

/**
 * The production rehearsal's document storage (decision 0189): the S3 driver, configured from STORAGE_DRIVER=s3 and
 * S3_* as a practice configures it, against an S3-compatible server that checks Signature V4.
 */
let s3: S3StandIn;
beforeAll(async () => {
  s3 = await startS3StandIn();
});
afterAll(async () => s3?.stop());

const storageWith = (env: Record<string, string> = {}) =>
  loadStorage(
    loadConfig({
      PAYLINK_MODE: 'sandbox',
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      ...env,
    }),
  );

describe('S3 driver ↔ an S3-compatible server', () => {
  it('puts, gets and deletes an ID photo with signed requests', async () => {
    const storage = storageWith();
    expect(storage.driver).toBe('s3');
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    await storage.put('links/abc/id-front.jpg', bytes, 'image/jpeg');
    expect(s3.keys()).toContain('links/abc/id-front.jpg');
    expect(await storage.get('links/abc/id-front.jpg')).toEqual(Buffer.from(bytes));
    expect(await storage.get('links/abc/none.jpg')).toBeNull();
    await storage.delete('links/abc/id-front.jpg');
    expect(await storage.get('links/abc/id-front.jpg')).toBeNull();
  });

  it('a wrong secret or key is refused (403) and nothing is stored', async () => {
    const before = s3.keys();
    await expect(
      storageWith({ S3_SECRET_ACCESS_KEY: 'wrong' }).put('links/abc/x.pdf', new Uint8Array([1]), 'application/pdf'),
    ).rejects.toThrow('403 SignatureDoesNotMatch');
    await expect(
      storageWith({ S3_ACCESS_KEY_ID: 'AKIDWRONG' }).put('links/abc/x.pdf', new Uint8Array([1]), 'application/pdf'),
    ).rejects.toThrow('403 InvalidAccessKeyId');
    expect(s3.keys()).toEqual(before);
  });
});
