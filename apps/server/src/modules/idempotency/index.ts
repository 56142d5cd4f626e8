export { installIdempotency } from './idempotency.js';
