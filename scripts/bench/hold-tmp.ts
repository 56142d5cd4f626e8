import { signedInPatient, startProduct } from './product.js';
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const product = await startProduct({ LOG_LEVEL: 'warn', RATE_LIMIT_DEFAULT_PER_MINUTE: '0', RATE_LIMIT_LOOKUP_PER_MINUTE: '0' }, ['--liftoff-only', '--conditions=paylink-build', 'apps/server/dist/main.js']);
const p = await signedInPatient(product);
console.log(JSON.stringify({ db: product.env.DATABASE_URL, link: p.link.id, token: p.token, base: product.baseUrl }));
process.on('SIGTERM', async () => { await product.stop(); process.exit(0); });
setTimeout(async () => { await product.stop(); process.exit(0); }, 40 * 60_000);
