import fs from 'node:fs';
import { consoleRoutes as routes } from '@paylink/shared';
import { call, download } from '../api-client.js';
import { table } from '../format.js';
import type { Cli } from './kit.js';

/** `paylink documents …`: a link's signed documents and ID uploads, and a signed PDF. */
export function registerDocuments({ program, env, print }: Cli): void {
  const documents = program.command('documents').description('signed documents and ID uploads');
  documents
    .command('list <linkId>')
    .description("a link's documents and their signing status")
    .action(async (id: string) => {
      const r = await call(env, routes.linkDocuments, { params: { id } });
      print(r, () =>
        r.length
          ? table([
              ['ID', 'KIND', 'STATUS', 'SIGNER', 'METHOD', 'SIGNED'],
              ...r.map((d) => [
                d.submissionId,
                d.kind,
                d.status,
                d.signerName ?? '-',
                d.signatureMethod ?? '-',
                d.completedAt ?? '-',
              ]),
            ])
          : 'No documents yet (they are prepared when the patient chooses a payment).',
      );
    });
  documents
    .command('download <submissionId>')
    .description('save the signed PDF of a completed document')
    .option('-o, --out <file>', 'where to save it (default <submissionId>.pdf)')
    .action(async (id: string, o: { out?: string }) => {
      const pdf = await download(env, routes.documentPdf, { params: { submissionId: id } });
      const out = o.out ?? `${id}.pdf`;
      fs.writeFileSync(out, pdf, { mode: 0o600 });
      print({ file: out, bytes: pdf.length }, () => `Saved ${out} (${pdf.length} bytes)`);
    });
}
