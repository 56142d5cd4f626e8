import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Its own file so that the PGlite template (imported by client.ts) does not import migrate.ts, which imports client.ts.
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
