import path from 'node:path';
import type { Config } from '../../config.js';
import { localStorage } from './local-storage.js';
import { s3Storage } from './s3-storage.js';
import type { DocumentStorage } from './types.js';

/** Local disk under `<data dir>/documents` by default; S3-compatible with STORAGE_DRIVER=s3 (config checks S3_*). */
export function loadStorage(config: Config): DocumentStorage {
  if (config.STORAGE_DRIVER === 's3') {
    return s3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    });
  }
  return localStorage(path.join(config.dataDir, 'documents'));
}
