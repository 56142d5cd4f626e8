import { createHash, createHmac } from 'node:crypto';
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
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** AWS Signature Version 4 for one request: returns the headers to send (host, x-amz-date, content hash, auth). */
export function signV4(opts: {
  method: string;
  url: URL;
  headers?: Record<string, string>;
  payloadHash: string;
  region: string;
  service?: string;
  accessKeyId: string;
  secretAccessKey: string;
  date: Date;
}): Record<string, string> {
  const service = opts.service ?? 's3';
  const amzDate = opts.date.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: opts.url.host,
    'x-amz-content-sha256': opts.payloadHash,
    'x-amz-date': amzDate,
  };
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]}\n`).join('');
  const signedHeaders = names.join(';');
  const query = [...opts.url.searchParams.entries()]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    opts.method,
    opts.url.pathname || '/',
    query,
    canonicalHeaders,
    signedHeaders,
    opts.payloadHash,
  ].join('\n');
  const scope = `${day}/${opts.region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${opts.secretAccessKey}`, day);
  const kSigning = hmac(hmac(hmac(kDate, opts.region), service), 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${opts.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
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
    const headers = signV4({
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
