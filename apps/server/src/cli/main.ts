import { Command } from 'commander';
import { LINK_ID_PATTERN } from '@paylink/shared';
import { CliError, resolveCliEnv } from './api-client.js';
import { registerDocuments } from './commands/documents.js';
import { registerFunnel } from './commands/funnel.js';
import { createCli } from './commands/kit.js';
import { registerLinks } from './commands/links.js';
import { registerPayments } from './commands/payments.js';
import { registerPlans } from './commands/plans.js';
import { registerLogin, registerStaff } from './commands/staff.js';
import { forTerminal, jsonForTerminal } from './format.js';

/**
 * `npm run paylink -- <command>`: a thin client of the admin API (docs/coordinator.md). It finds the server from
 * PAYLINK_URL (default http://localhost:$PORT) and its token from PAYLINK_ADMIN_TOKEN or <PAYLINK_DATA_DIR>/admin-token.
 * Each command group is a file in commands/; every call goes through the shared route table (api-client.ts).
 */
const program = new Command();
const env = resolveCliEnv();

program
  .name('paylink')
  .description('Paylink coordinator CLI: create and manage patient payment links.')
  .option('--json', 'print JSON instead of text')
  .showHelpAfterError('(add --help for usage)')
  // Links made before ids stopped starting with '-' still exist; commander reads such an id as an option.
  .configureOutput({
    outputError: (message, write) => {
      const id = /unknown option '([^']+)'/.exec(message)?.[1];
      write(message);
      if (id && LINK_ID_PATTERN.test(id))
        write(`If ${id} is a link id, put -- before it, after the options: paylink links show -- ${id}\n`);
    },
  })
  .addHelpText(
    'after',
    `\nServer: PAYLINK_URL (default http://localhost:$PORT, now ${env.baseUrl}).` +
      `\nToken:  PAYLINK_ADMIN_TOKEN, or the file the server writes in sandbox mode (${env.tokenSource}).`,
  );

const cli = createCli(program, env);
registerLinks(cli);
registerPayments(cli);
registerPlans(cli);
registerFunnel(cli);
registerLogin(cli);
registerDocuments(cli);
registerStaff(cli);

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CliError) {
    if (program.opts().json) console.error(jsonForTerminal({ error: err.message, fields: err.details }));
    else {
      console.error(forTerminal(`error: ${err.message}`));
      for (const [k, v] of Object.entries(err.details ?? {})) {
        if (!err.message.includes(v)) console.error(forTerminal(`  ${k}: ${v}`));
      }
    }
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
