/**
 * Where signed PDFs and uploaded ID files live. Keys are relative, slash-separated paths made by our own code
 * (`submissions/<id>/signed-<hex>.pdf`); an adapter refuses anything else.
 */
export interface DocumentStorage {
  readonly driver: 'local' | 's3';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.includes('..') || key.length > 512) throw new Error(`Invalid storage key: ${key}`);
}
