import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { localStorage } from './local-storage.js';
import { s3Storage, signV4 } from './s3-storage.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('local document storage', () => {
  it('stores, reads and deletes files under its root, private to the server user', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-docs-'));
    dirs.push(root);
    const s = localStorage(root);
    await s.put('submissions/abc/signed.pdf', Buffer.from('%PDF-1.7 one'), 'application/pdf');
    expect((await s.get('submissions/abc/signed.pdf'))?.toString()).toBe('%PDF-1.7 one');
    expect(fs.statSync(path.join(root, 'submissions/abc/signed.pdf')).mode & 0o077).toBe(0);
    await s.put('submissions/abc/signed.pdf', Buffer.from('%PDF-1.7 two'), 'application/pdf');
    expect((await s.get('submissions/abc/signed.pdf'))?.toString()).toBe('%PDF-1.7 two');
    await s.delete('submissions/abc/signed.pdf');
    expect(await s.get('submissions/abc/signed.pdf')).toBeNull();
    await s.delete('submissions/abc/signed.pdf');
  });

  it('refuses keys that could leave its root', async () => {
    const s = localStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-docs-')));
    for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '', 'a\\b']) {
      await expect(s.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe('S3-compatible storage', () => {
  it('signs requests exactly as AWS documents (Signature Version 4, GET Object example)', async () => {
    const headers = await signV4({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      date: new Date('2013-05-24T00:00:00Z'),
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('puts, gets and deletes objects over HTTP with path-style addressing', async () => {
    // A minimal object store on loopback: records what arrives, keeps bodies by path.
    const objects = new Map<string, Buffer>();
    const seen: { method: string; url: string; auth: string; hash: string; bodyHash: string }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        seen.push({
          method: req.method!,
          url: req.url!,
          auth: String(req.headers.authorization),
          hash: String(req.headers['x-amz-content-sha256']),
          bodyHash: createHash('sha256').update(body).digest('hex'),
        });
        if (req.method === 'PUT') objects.set(req.url!, body);
        if (req.method === 'DELETE') objects.delete(req.url!);
        const found = objects.get(req.url!);
        if (req.method === 'GET' && !found) {
          res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
          return;
        }
        res.writeHead(req.method === 'DELETE' ? 204 : 200).end(req.method === 'GET' ? found : undefined);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const s = s3Storage({
        endpoint: `http://127.0.0.1:${port}`,
        region: 'eu-west-1',
        bucket: 'paylink-docs',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'secret',
      });
      await s.put('submissions/1/signed.pdf', Buffer.from('%PDF-1.7 hello'), 'application/pdf');
      expect((await s.get('submissions/1/signed.pdf'))?.toString()).toBe('%PDF-1.7 hello');
      await s.delete('submissions/1/signed.pdf');
      expect(await s.get('submissions/1/signed.pdf')).toBeNull();
      expect(seen.map((x) => `${x.method} ${x.url}`)).toEqual([
        'PUT /paylink-docs/submissions/1/signed.pdf',
        'GET /paylink-docs/submissions/1/signed.pdf',
        'DELETE /paylink-docs/submissions/1/signed.pdf',
        'GET /paylink-docs/submissions/1/signed.pdf',
      ]);
      for (const x of seen) {
        expect(x.auth).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request, /);
        expect(x.hash).toBe(x.bodyHash);
      }
      expect(seen[0]!.auth).toContain('SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date');
    } finally {
      server.close();
    }
  });

  it('reports the store’s error code when a request fails', async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const s = s3Storage({
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        region: 'us-east-1',
        bucket: 'b',
        accessKeyId: 'a',
        secretAccessKey: 's',
      });
      await expect(s.put('k/x.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow(
        'S3 PUT k/x.pdf failed: 403 SignatureDoesNotMatch',
      );
    } finally {
      server.close();
    }
  });
});
