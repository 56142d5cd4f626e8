import { createHash } from 'node:crypto';
import { AwsV4Signer } from 'aws4fetch';
import { assertStorageKey, type DocumentStorage } from './types.js';

export interface S3Options {
  /** e.g. https://s3.us-east-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com, http://127.0.0.1:9000 */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  fetch?: typeof fetch;
}

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * AWS Signature Version 4 for one request (aws4fetch's signer): the headers to send. The payload hash is always given,
 * so S3 checks the body (aws4fetch would otherwise sign S3 requests as UNSIGNED-PAYLOAD).
 */
export async function signV4(opts: {
  method: string;
  url: URL;
  headers?: Record<string, string>;
  payloadHash: string;
  region: string;
  service?: string;
  accessKeyId: string;
  secretAccessKey: string;
  date: Date;
}): Promise<Record<string, string>> {
  const signer = new AwsV4Signer({
    method: opts.method,
    url: opts.url.toString(),
    headers: { ...opts.headers, 'x-amz-content-sha256': opts.payloadHash },
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
    region: opts.region,
    service: opts.service ?? 's3',
    allHeaders: true,
    datetime: opts.date.toISOString().replace(/[:-]|\.\d{3}/g, ''),
  });
  const { headers } = await signer.sign();
  return { ...Object.fromEntries(headers.entries()), host: opts.url.host };
}

/**
 * Any S3-compatible object store (AWS S3, Cloudflare R2, MinIO, Backblaze B2...) over plain HTTPS with SigV4, path-style
 * addressing.
 */
export function s3Storage(opts: S3Options): DocumentStorage {
  const endpoint = (opts.endpoint ?? `https://s3.${opts.region}.amazonaws.com`).replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const request = async (method: string, key: string, body?: Uint8Array, contentType?: string) => {
    assertStorageKey(key);
    const url = new URL(`${endpoint}/${encodeURIComponent(opts.bucket)}/${key}`);
    const headers = await signV4({
      method,
      url,
      headers: contentType ? { 'content-type': contentType } : {},
      payloadHash: sha256Hex(body ?? ''),
      region: opts.region,
      accessKeyId: opts.accessKeyId,
      secretAccessKey: opts.secretAccessKey,
      date: new Date(),
    });
    delete headers.host;
    return doFetch(url, { method, headers, body: body ? Buffer.from(body) : undefined });
  };
  const fail = async (what: string, r: Response) => {
    const text = await r.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? '';
    return new Error(`S3 ${what} failed: ${r.status} ${code}`.trim());
  };
  return {
    driver: 's3',
    async put(key, bytes, contentType) {
      const r = await request('PUT', key, bytes, contentType);
      if (!r.ok) throw await fail(`PUT ${key}`, r);
      await r.body?.cancel();
    },
    async get(key) {
      const r = await request('GET', key);
      if (r.status === 404) {
        await r.body?.cancel();
        return null;
      }
      if (!r.ok) throw await fail(`GET ${key}`, r);
      return Buffer.from(await r.arrayBuffer());
    },
    async delete(key) {
      const r = await request('DELETE', key);
      if (!r.ok && r.status !== 404) throw await fail(`DELETE ${key}`, r);
      await r.body?.cancel();
    },
  };
}
