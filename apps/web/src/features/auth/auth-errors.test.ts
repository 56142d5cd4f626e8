import fs from 'node:fs';
import path from 'node:path';
import { AUTH_ERROR_CODES } from '@paylink/shared';
import { describe, expect, it } from 'vitest';

const locales = path.resolve(__dirname, '../../../public/locales');

describe('sign-in error sentences', () => {
  it.each(['en', 'es'])('%s has a sentence for every code the sign-in API and the client give, and no other', (lng) => {
    const common = JSON.parse(fs.readFileSync(path.join(locales, lng, 'common.json'), 'utf8')) as {
      auth: { errors: Record<string, string> };
    };
    const codes = Object.keys(common.auth.errors).filter((k) => k.startsWith('auth/'));
    expect(codes.sort()).toEqual([...AUTH_ERROR_CODES].sort());
  });
});
