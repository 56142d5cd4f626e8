import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** The parts of @20minutes/s3rver (CommonJS, no type declarations) used here. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  vhostBuckets: boolean;
  configureBuckets: { name: string }[];
}) => S3rverServer;
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;

/**
 * An S3-compatible server on 127.0.0.1 (@20minutes/s3rver, a maintained fork of s3rver): path-style buckets, files in
 * a temporary folder, and AWS Signature V4 checked on every request (a wrong secret answers 403
 * SignatureDoesNotMatch, an unknown key 403 InvalidAccessKeyId). Its one account has the fixed key pair S3RVER/S3RVER.
 * The product's S3 driver (STORAGE_DRIVER=s3) talks to it as to AWS, R2 or MinIO.
 */
export interface S3StandIn {
  /** S3_ENDPOINT */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The stored objects' keys (what the product uploaded), read from the server's folder. */
  keys(): string[];
  stop(): Promise<void>;
}

export async function startS3StandIn(opts: { bucket?: string } = {}): Promise<S3StandIn> {
  const bucket = opts.bucket ?? 'paylink-documents';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const bucketDir = path.join(directory, bucket);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    keys: () =>
      fs.existsSync(bucketDir)
        ? fs
            .readdirSync(bucketDir, { recursive: true, withFileTypes: true })
            .filter(
              (e) =>
                e.isFile() && !e.name.endsWith('._S3rver_metadata.json') && !e.name.endsWith('._S3rver_object.md5'),
            )
            .map((e) => path.relative(bucketDir, path.join(e.parentPath, e.name)).replace(/\._S3rver_object$/, ''))
            .sort()
        : [],
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
