/**
 * The bench's yardstick: a bare Fastify + pg server doing one indexed SELECT per request against the same PostgreSQL
 * (the product's own `link` table in the bench database), with the same pool size as the product. Started by
 * scripts/bench/api.ts as its own process: `node --import tsx scripts/bench/baseline-server.ts <port> <database-url>`.
 */
import Fastify from 'fastify';
import pg from 'pg';

const [port, databaseUrl, poolMax] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolMax ?? 10) });
const app = Fastify();
app.get('/link/:id', async (req, reply) => {
  const { rows } = await pool.query('select id, status from link where id = $1', [(req.params as { id: string }).id]);
  if (!rows[0]) return reply.status(404).send({ error: 'not_found' });
  return rows[0];
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('baseline ready');
