import fs from 'node:fs';
import { test as base, type BrowserContextOptions, type Page, type TestInfo } from '@playwright/test';
import {
  admin as adminCall,
  cancelLink,
  createLink,
  expireLink,
  getLink,
  type AdminLink,
  type LinkOptions,
  type TestLink,
} from './admin.js';
import { consoleSignIn, createStaff, demoCoordinator } from './console.js';
import { openLink, signInByEmail, signInBySms, type Flow } from './flows.js';
import { outboxIds, readOutbox, waitForMessage, type OutboxMessage } from './outbox.js';
import { startQuickStart } from './quick-start.js';
import { startRehearsalProduct } from './rehearsal.js';
import { startProduct, type RunningProduct } from './server.js';
import { watchContext, type Session } from './session.js';
import type { Lng } from './texts.js';

/**
 * The browser suite's fixtures (Playwright Test). A test asks for what it needs by name:
 *
 *   test('…', async ({ product, admin, outbox, page, session, openSession, staff, patient }) => { … });
 *
 * - product: the product under test, one per test FILE (started on the file's first test, stopped when the worker
 *   moves on to another file or ends). `test.use({ productEnv: { … } })` at the top of a file starts it with more
 *   environment (a worker option: such a file gets its own worker).
 * - admin, outbox: the staff API and the sandbox outbox, bound to that product.
 * - page / session: the test's browser (Playwright's page, options from test.use); session adds the context and what
 *   went wrong in it (uncaught exceptions, console errors).
 * - openSession(options): one more browser (a second device, the coordinator next to the patient), traced and
 *   captured like the first; closed at the end of the test, or earlier with close().
 * - staff(who, options): a browser signed in to the console as a new admin/coordinator/billing user, the demo
 *   coordinator, or a given user. patient(link, options): a browser signed in to a link (SMS or e-mail, as the link
 *   says), on /patientinfo.
 *
 * Every browser the test opened fails the test when the app threw an uncaught exception, and on a failure leaves its
 * pages' HTML and console in the test's output folder, next to Playwright's trace and screenshots and the server log.
 */

export type Role = 'admin' | 'coordinator' | 'billing';
export interface StaffUser {
  email: string;
  password: string;
  name?: string;
}

export interface AdminApi {
  /** Any call of the admin API (`/api/admin<path>`) with the sandbox staff token; throws on a non-2xx answer. */
  request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  createLink(options?: LinkOptions): Promise<TestLink>;
  getLink(id: string): Promise<AdminLink>;
  cancelLink(id: string): Promise<void>;
  expireLink(id: string): Promise<void>;
  createStaff(role: Role): Promise<{ email: string; password: string; name: string }>;
  /** The demo coordinator the product prints at start in sandbox mode. */
  demoCoordinator(): Promise<{ email: string; password: string }>;
}

export interface Outbox {
  read(to: string): Promise<OutboxMessage[]>;
  /** Ids already there for `to`, so a later wait sees only new messages. */
  ids(to: string): Promise<string[]>;
  waitFor(opts: Parameters<typeof waitForMessage>[1]): Promise<OutboxMessage>;
}

export interface OpenedSession extends Session {
  /** Closes this browser now (its trace and a screenshot are kept); fails when the app threw in it. */
  close(): Promise<void>;
}
export type SessionOptions = BrowserContextOptions & { label?: string };
export type StaffSession = OpenedSession & { user: StaffUser };
export type PatientSession = OpenedSession & { flow: Flow };

/**
 * How a file's product starts: `serve`, as `npm run serve` starts it (the default); `quick-start`, the README's
 * `npm start` itself (e2e/quick-start only: it rebuilds what other files' products serve); `rehearsal`, production
 * mode with every real adapter at a local stand-in (e2e/support/rehearsal.ts).
 */
export type ProductKind = 'serve' | 'quick-start' | 'rehearsal';

interface WorkerFixtures {
  productEnv: Record<string, string>;
  productKind: ProductKind;
  _productPerFile: ProductPerFile;
}
interface TestFixtures {
  product: RunningProduct;
  admin: AdminApi;
  outbox: Outbox;
  session: Session;
  openSession: (options?: SessionOptions) => Promise<OpenedSession>;
  staff: (who: Role | 'demo' | StaffUser, options?: SessionOptions & { lng?: 'en' | 'es' }) => Promise<StaffSession>;
  patient: (link: TestLink, options?: SessionOptions & { lng?: Lng; keyboard?: boolean }) => Promise<PatientSession>;
  _sessions: Sessions;
}

/** One running product per test file, for the worker running that file. */
class ProductPerFile {
  private current: { file: string; product: Promise<RunningProduct> } | undefined;
  constructor(
    private readonly env: Record<string, string>,
    private readonly kind: ProductKind,
  ) {}

  private start(): Promise<RunningProduct> {
    if (this.kind === 'quick-start') return startQuickStart();
    if (this.kind === 'rehearsal') return startRehearsalProduct(this.env);
    return startProduct(this.env);
  }

  async forFile(file: string): Promise<RunningProduct> {
    if (this.current?.file !== file) {
      await this.stop();
      this.current = { file, product: this.start() };
    }
    try {
      return await this.current.product;
    } catch (err) {
      this.current = undefined; // the file's next test tries again
      throw err;
    }
  }

  async stop(): Promise<void> {
    const running = this.current;
    this.current = undefined;
    await (await running?.product.catch(() => undefined))?.stop();
  }
}

function failed(testInfo: TestInfo): boolean {
  return testInfo.errors.length > 0 || (testInfo.status !== undefined && testInfo.status !== testInfo.expectedStatus);
}

/**
 * Lists a file already written in the test's output folder among its attachments (the reporters print the path).
 * testInfo.attach would copy it to attachments/<name>-<hash>; this keeps one copy, with a name a person can read.
 */
function keep(testInfo: TestInfo, name: string, file: string, contentType: string): void {
  testInfo.attachments.push({ name, path: file, contentType });
}

function safeName(s: string): string {
  return s
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

interface Tracked {
  label: string;
  session: Session;
  /** Each page's URL and HTML, taken when the session closed (or at the end of the test). */
  pages: { url: string; html: string }[] | undefined;
  checked: boolean;
}

/** Every browser a test opened: what to save when the test fails, and the uncaught-exception rule. */
class Sessions {
  private readonly tracked: Tracked[] = [];
  constructor(private readonly testInfo: TestInfo) {}

  add(label: string, session: Session): Tracked {
    const taken = new Set(this.tracked.map((t) => t.label));
    let unique = label;
    for (let i = 2; taken.has(unique); i++) unique = `${label}-${i}`;
    const t: Tracked = { label: unique, session, pages: undefined, checked: false };
    this.tracked.push(t);
    return t;
  }

  of(page: Page): Session {
    const t = this.tracked.find((x) => x.session.page === page);
    if (!t) throw new Error('no session for this page');
    return t.session;
  }

  /** Takes the pages' HTML while they are still open (cheap; written out only if the test fails). */
  async snapshot(t: Tracked): Promise<void> {
    if (t.pages) return;
    t.pages = [];
    for (const p of t.session.context.pages()) {
      // A page that hangs (the test timed out on it) must not hold up the report.
      const html = await Promise.race([
        p.content(),
        new Promise<string>((r) => setTimeout(() => r('<!-- no answer within 5 s -->'), 5000).unref()),
      ]).catch((e: unknown) => `<!-- not readable: ${e} -->`);
      t.pages.push({ url: p.url(), html });
    }
  }

  /** Throws when the app threw uncaught exceptions in this browser (once per browser). */
  check(t: Tracked): void {
    if (t.checked || t.session.pageErrors.length === 0) return;
    t.checked = true;
    throw new Error(`The app threw uncaught exceptions (${t.label}):\n${t.session.pageErrors.join('\n')}`);
  }

  async close(t: Tracked): Promise<void> {
    await this.snapshot(t);
    await t.session.context.close().catch(() => undefined);
    this.check(t);
  }

  /** At the end of the test: on failure, each browser's pages (HTML) and console go to the output folder. */
  async finish(): Promise<void> {
    const anyErrors = this.tracked.some((t) => t.session.pageErrors.length > 0 && !t.checked);
    if (failed(this.testInfo) || anyErrors) {
      for (const t of this.tracked) {
        const name = safeName(t.label);
        for (const [i, p] of (t.pages ?? []).entries()) {
          const file = this.testInfo.outputPath(`${name}${t.pages!.length > 1 ? `-${i + 1}` : ''}.html`);
          fs.writeFileSync(file, `<!-- ${p.url} -->\n${p.html}`);
          keep(this.testInfo, `${t.label} page${i ? ` ${i + 1}` : ''} (HTML)`, file, 'text/html');
        }
        const log = [
          `pages: ${(t.pages ?? []).map((p) => p.url).join(' ')}`,
          '',
          'uncaught exceptions:',
          ...t.session.pageErrors,
          '',
          'console errors and warnings:',
          ...t.session.console,
        ].join('\n');
        const file = this.testInfo.outputPath(`${name}.console.txt`);
        fs.writeFileSync(file, log);
        keep(this.testInfo, `${t.label} console`, file, 'text/plain');
      }
    }
    for (const t of this.tracked) this.check(t);
  }
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  productEnv: [{}, { scope: 'worker', option: true }],
  productKind: ['serve', { scope: 'worker', option: true }],

  _productPerFile: [
    async ({ productEnv, productKind }, use) => {
      const products = new ProductPerFile(productEnv, productKind);
      await use(products);
      await products.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  // Its own timeout: starting the product (up to a minute on a loaded machine, and the previous file's stop) is not
  // the first test's time.
  product: [
    async ({ _productPerFile }, use, testInfo) => {
      const product = await _productPerFile.forFile(testInfo.file);
      await use(product);
      if (failed(testInfo)) {
        const file = testInfo.outputPath('server.log');
        fs.writeFileSync(file, product.output().slice(-20_000));
        keep(testInfo, 'server log (last 20 kB)', file, 'text/plain');
      }
    },
    { timeout: 240_000 },
  ],

  admin: async ({ product }, use) => {
    await use({
      request: (method, path, body) => adminCall(product, method, path, body),
      createLink: (options) => createLink(product, options),
      getLink: (id) => getLink(product, id),
      cancelLink: (id) => cancelLink(product, id),
      expireLink: (id) => expireLink(product, id),
      createStaff: (role) => createStaff(product, role),
      demoCoordinator: () => demoCoordinator(product),
    });
  },

  outbox: async ({ product }, use) => {
    await use({
      read: (to) => readOutbox(product, to),
      ids: (to) => outboxIds(product, to),
      waitFor: (opts) => waitForMessage(product, opts),
    });
  },

  // Depends on product so that the server log is written after a failure found here (teardown runs in reverse).
  _sessions: async ({ product: _product }, use, testInfo) => {
    const sessions = new Sessions(testInfo);
    await use(sessions);
    await sessions.finish();
  },

  // The test's page counts under the uncaught-exception rule whether or not the test asks for `session`.
  page: async ({ page, context, _sessions }, use) => {
    const tracked = _sessions.add('page', watchContext(context, page));
    await use(page);
    // Playwright closes this context after this point: take the HTML while it is open.
    await _sessions.snapshot(tracked);
  },

  session: async ({ page, _sessions }, use) => {
    await use(_sessions.of(page));
  },

  openSession: async ({ browser, _sessions }, use) => {
    const opened: ReturnType<Sessions['add']>[] = [];
    await use(async ({ label, ...options } = {}) => {
      // Options not given come from the config and test.use (Playwright applies them to every new context), so
      // Playwright traces this context and screenshots its pages too.
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const tracked = _sessions.add(label ?? 'session', watchContext(context, page));
      opened.push(tracked);
      return { ...tracked.session, close: () => _sessions.close(tracked) };
    });
    for (const t of opened) {
      await _sessions.snapshot(t);
      await t.session.context.close().catch(() => undefined);
    }
  },

  staff: async ({ product, openSession }, use) => {
    await use(async (who, { lng = 'en', ...options } = {}) => {
      const user: StaffUser =
        who === 'demo'
          ? await demoCoordinator(product)
          : typeof who === 'string'
            ? await createStaff(product, who)
            : who;
      const session = await openSession({
        label: `staff ${typeof who === 'string' ? who : 'user'}`,
        ...options,
      });
      if (lng === 'es') {
        await session.page.goto(`${product.baseUrl}/console/sign-in`);
        await session.page.getByRole('button', { name: 'Español' }).click();
      }
      await consoleSignIn(session.page, product, user, { lng });
      return { ...session, user };
    });
  },

  patient: async ({ product, openSession }, use) => {
    await use(async (link, { lng = 'en', keyboard, ...options } = {}) => {
      const session = await openSession({ label: 'patient', ...options });
      const flow: Flow = { page: session.page, product, link, lng, ...(keyboard ? { keyboard } : {}) };
      await openLink(flow);
      if (link.input.signInMethod === 'email') await signInByEmail(flow);
      else await signInBySms(flow);
      return { ...session, flow };
    });
  },
});

export { expect } from '@playwright/test';
