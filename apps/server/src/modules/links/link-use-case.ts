// Kept while in-flight branches still import it from here; the types live in lib/audit.ts.
export { SYSTEM_ACTOR, type Actor } from '../../lib/audit.js';
