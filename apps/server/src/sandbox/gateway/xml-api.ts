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
import { transactionsWithCards, type ReversalRow, type SandboxDb, type TxnRow } from './store.js';
import { tokenSale } from './token-sales.js';

/**
 * Faults for merchant-initiated sales (ccsale on the XML API), switched on by tests and demos: `slow` answers after
 * delayMs; `approve-then-timeout` records the sale, holds the answer delayMs, then drops the connection without one
 * (the caller's outcome is unknown; txnquery finds the approval). `times` limits it to the next n sales. The gateway
 * being down is the XML API outage switch, which covers these sales too.
 */
export interface SaleFault {
  mode: 'none' | 'slow' | 'approve-then-timeout';
  delayMs: number;
  times: number | null;
}

/**
 * Converge's XML API (`xmldata=<txn>…</txn>` form posts): ccsale with a stored card's token, txnquery by ssl_txn_id
 * or ssl_merchant_txn_id, ccvoid,
 * ccreturn, and ccsettle (closes the batch: the sandbox's way to make sales settled in tests and demos). Also the
 * sandbox's outage switch for it.
 */
export function xmlApiRoutes(opts: {
  app: FastifyInstance;
  db: SandboxDb;
  credentials: () => Promise<ConvergeCredentials>;
}): void {
  const { app, db } = opts;

  let saleFault: SaleFault = { mode: 'none', delayMs: 0, times: null };
  app.post('/sandbox/sale-faults', async (request) => {
    const b = (request.body ?? {}) as Partial<SaleFault>;
    const mode = b.mode === 'slow' || b.mode === 'approve-then-timeout' ? b.mode : 'none';
    const delayMs = Math.min(Math.max(Number(b.delayMs) || 0, 0), 120_000);
    const times = Number.isInteger(b.times) && b.times! > 0 ? b.times! : null;
    saleFault = { mode, delayMs: mode === 'approve-then-timeout' && !delayMs ? 30_000 : delayMs, times };
    return saleFault;
  });
  const takeSaleFault = (): SaleFault => {
    const f = saleFault;
    if (f.mode !== 'none' && f.times !== null) {
      saleFault = f.times > 1 ? { ...f, times: f.times - 1 } : { mode: 'none', delayMs: 0, times: null };
    }
    return f;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    if (type === TXN_TYPE.sale) {
      const fault = takeSaleFault();
      if (fault.mode === 'slow') await sleep(fault.delayMs);
      const answer = await tokenSale({ db, fields: f, key: (await opts.credentials()).pin });
      if (fault.mode === 'approve-then-timeout') {
        await sleep(fault.delayMs);
        reply.hijack();
        reply.raw.destroy();
        return reply;
      }
      return answer;
    }
    if (!([TXN_TYPE.query, TXN_TYPE.void, TXN_TYPE.return] as string[]).includes(type)) {
      return xmlError(
        ERROR_CODE.requiredField,
        'Invalid Transaction Type',
        'The sandbox answers ccsale (with ssl_token), txnquery, ccvoid, ccreturn and ccsettle.',
      );
    }
    if (type === TXN_TYPE.query && !f.ssl_txn_id && f.ssl_merchant_txn_id) {
      // Search by our merchant transaction id, as Converge's txnquery with a date range.
      const m = await transactionsWithCards(db, 's.merchant_txn_id = $1 and s.merchant_id = $2', [
        f.ssl_merchant_txn_id,
        f.ssl_merchant_id,
      ]);
      return encodeTxnList(m.map((x) => txnFields(x.txn, x.card)));
    }
    if (!f.ssl_txn_id)
      return xmlError(ERROR_CODE.requiredField, 'Required Field Not Supplied', 'ssl_txn_id is required.');
    if (type === TXN_TYPE.void) return reverse({ db, fields: f, kind: 'VOID' });
    if (type === TXN_TYPE.return) return reverse({ db, fields: f, kind: 'RETURN' });
    const r = await transactionsWithCards(db, 's.txn_id = $1 and s.merchant_id = $2', [
      f.ssl_txn_id,
      f.ssl_merchant_id,
    ]);
    if (r.length === 0) {
      const rev = await db.query<ReversalRow & { parent: TxnRow }>(
        `select r.*, to_jsonb(t) as parent from sandbox_gateway_reversal r
         join sandbox_gateway_transaction t on t.txn_id = r.parent_txn_id where r.txn_id = $1 and r.merchant_id = $2`,
        [f.ssl_txn_id, f.ssl_merchant_id],
      );
      return encodeTxnList(rev.rows.map((x) => reversalFields(x, x.parent)));
    }
    return encodeTxnList(r.map((x) => txnFields(x.txn, x.card)));
  };
  app.post(CONVERGE_PATHS.xmlApiDemo, processXml);
  app.post(CONVERGE_PATHS.xmlApi, processXml);
}
