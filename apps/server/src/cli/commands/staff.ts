import { Option } from 'commander';
import { consoleRoutes as routes } from '@paylink/shared';
import { CliError, call } from '../api-client.js';
import { table } from '../format.js';
import type { Cli } from './kit.js';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('Give --password, set PAYLINK_ADMIN_PASSWORD, or pipe the password in.');
  let data = '';
  for await (const chunk of process.stdin) data += chunk;
  return data.trim();
}

/** `paylink login`: a staff token for PAYLINK_ADMIN_TOKEN. */
export function registerLogin({ program, env, print }: Cli): void {
  program
    .command('login')
    .description('sign in as a staff user and print a 12-hour token for PAYLINK_ADMIN_TOKEN')
    .requiredOption('--email <email>', 'staff e-mail')
    .option('--password <password>', 'password (default: PAYLINK_ADMIN_PASSWORD, else read from stdin)')
    .option('--code <code>', 'two-factor code from the authenticator app (or a recovery code), when 2FA is on')
    .action(async (o: { email: string; password?: string; code?: string }) => {
      const password = o.password ?? process.env.PAYLINK_ADMIN_PASSWORD ?? (await readStdin());
      const r = await call(
        env,
        routes.login,
        { body: { email: o.email, password, ...(o.code ? { code: o.code } : {}) } },
        { auth: false },
      );
      print(r, () => `export PAYLINK_ADMIN_TOKEN=${r.token}   # valid until ${r.expiresAt}`);
    });
}

/** `paylink staff …`: staff users (admins only). */
export function registerStaff({ program, env, print }: Cli): void {
  const staff = program.command('staff').description('staff users (admins only)');
  staff
    .command('add')
    .description('create a staff user')
    .requiredOption('--email <email>', 'e-mail')
    .requiredOption('--password <password>', 'password (at least 12 characters)')
    .option('--name <name>', 'display name')
    .addOption(new Option('--role <role>', 'role').choices(['admin', 'coordinator', 'billing']).default('coordinator'))
    .action(async (o) => {
      const r = await call(env, routes.createStaff, {
        body: { email: o.email, password: o.password, name: o.name, role: o.role },
      });
      print(r, () => `Created ${r.role} ${r.email}`);
    });
  staff
    .command('list')
    .description('list staff users')
    .action(async () => {
      const r = await call(env, routes.staff);
      print(r, () =>
        table([['E-MAIL', 'NAME', 'ROLE', 'CREATED'], ...r.staff.map((s) => [s.email, s.name, s.role, s.createdAt])]),
      );
    });
}
