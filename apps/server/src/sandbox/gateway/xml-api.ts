import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  CONVERGE_PATHS,
  ERROR_CODE,
  RESULT,
  TXN_TYPE,
  XMLDATA_FIELD,
  encodeTxn,
  encodeTxnList,
  parseConvergeXml,
  type ConvergeCredentials,
} from '../../providers/gateway/converge-protocol.js';
import { INVALID_CREDS, credentialsMatch, reversalFields, str, txnFields } from './answers.js';
import { reverse, xmlError } from './reversals.js';
import type { ReversalRow, SandboxDb, TxnRow } from './store.js';

/**
 * Converge's XML API (`xmldata=<txn>…</txn>` form posts): txnquery by ssl_txn_id or ssl_merchant_txn_id, ccvoid,
 * ccreturn, and ccsettle (closes the batch: the sandbox's way to make sales settled in tests and demos). Also the
 * sandbox's outage switch for it.
 */
export function xmlApiRoutes(opts: {
  app: FastifyInstance;
  db: SandboxDb;
  credentials: () => Promise<ConvergeCredentials>;
}): void {
  const { app, db } = opts;

  // A gateway outage on demand (tests and demos of issue 10: the gateway down while a payment is confirmed). Only the
  // XML API (txnquery, void, return) goes down; card pages and payments keep working, as in a partial outage.
  let xmlApiDown = false;
  app.post('/sandbox/xml-api-outage', async (request) => {
    xmlApiDown = (request.body as { down?: unknown } | undefined)?.down === true;
    return { xmlApiDown };
  });

  const processXml = async (request: { body: unknown }, reply: FastifyReply) => {
    if (xmlApiDown) return reply.code(503).type('text/plain; charset=utf-8').send('Service Unavailable');
    reply.type('application/xml; charset=utf-8');
    const xml = str((request.body as Record<string, unknown> | undefined)?.[XMLDATA_FIELD]);
    const { txns } = parseConvergeXml(xml);
    const f = txns[0] ?? {};
    if (!credentialsMatch(f, await opts.credentials())) return encodeTxn(INVALID_CREDS);
    const type = (f.ssl_transaction_type ?? '').toLowerCase();
    if (type === TXN_TYPE.settle) {
      // Closes the batch: every open sale of this merchant (or the one named by ssl_txn_id) becomes settled.
      const r = await db.query(
        `update sandbox_gateway_transaction set settled_at = now()
         where merchant_id = $1 and settled_at is null and voided_at is null and result = '0'
           and ($2 = '' or txn_id = $2)`,
        [f.ssl_merchant_id, f.ssl_txn_id ?? ''],
      );
      return encodeTxn({
        ssl_result: RESULT.approved,
        ssl_result_message: 'BATCH SETTLED',
        ssl_txn_count: String(r.rowCount),
      });
    }
    if (!([TXN_TYPE.query, TXN_TYPE.void, TXN_TYPE.return] as string[]).includes(type)) {
      return xmlError(
        ERROR_CODE.requiredField,
        'Invalid Transaction Type',
        'The sandbox answers txnquery, ccvoid, ccreturn and ccsettle.',
      );
    }
    if (type === TXN_TYPE.query && !f.ssl_txn_id && f.ssl_merchant_txn_id) {
      // Search by our merchant transaction id, as Converge's txnquery with a date range.
      const m = await db.query<TxnRow>(
        'select * from sandbox_gateway_transaction where merchant_txn_id = $1 and merchant_id = $2 order by created_at',
        [f.ssl_merchant_txn_id, f.ssl_merchant_id],
      );
      return encodeTxnList(m.rows.map(txnFields));
    }
    if (!f.ssl_txn_id)
      return xmlError(ERROR_CODE.requiredField, 'Required Field Not Supplied', 'ssl_txn_id is required.');
    if (type === TXN_TYPE.void) return reverse({ db, fields: f, kind: 'VOID' });
    if (type === TXN_TYPE.return) return reverse({ db, fields: f, kind: 'RETURN' });
    const r = await db.query<TxnRow>(
      'select * from sandbox_gateway_transaction where txn_id = $1 and merchant_id = $2',
      [f.ssl_txn_id, f.ssl_merchant_id],
    );
    if (r.rowCount === 0) {
      const rev = await db.query<ReversalRow & { parent: TxnRow }>(
        `select r.*, to_jsonb(t) as parent from sandbox_gateway_reversal r
         join sandbox_gateway_transaction t on t.txn_id = r.parent_txn_id where r.txn_id = $1 and r.merchant_id = $2`,
        [f.ssl_txn_id, f.ssl_merchant_id],
      );
      return encodeTxnList(rev.rows.map((x) => reversalFields(x, x.parent)));
    }
    return encodeTxnList(r.rows.map(txnFields));
  };
  app.post(CONVERGE_PATHS.xmlApiDemo, processXml);
  app.post(CONVERGE_PATHS.xmlApi, processXml);
}
