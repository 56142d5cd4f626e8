import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { ConsoleLinkDetail, ConsoleSession, LinkDocument, TwoFactorStatus } from './contract';
import { CONSOLE_CSRF_HEADER, consoleEndpoints } from './contract';
import { call, type AnswerOf, type BodyOf } from './client';

describe('console call(): the route table, typed (decision 0123)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fills path params, sends {} on a bodiless change with the CSRF header, and answers the JSON', async () => {
    const fetchMock = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(JSON.stringify({ id: 'u1' }), { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(call(consoleEndpoints.resetStaffTwoFactor, { params: { id: 'a b' } })).resolves.toEqual({ id: 'u1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/\/api\/admin\/staff\/a%20b\/reset-2fa$/);
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{}');
    expect(init.headers).toMatchObject({ [CONSOLE_CSRF_HEADER]: '1' });
  });

  it('infers inputs and answers from the shared schemas (types only)', () => {
    expectTypeOf(call<typeof consoleEndpoints.session>).returns.resolves.toEqualTypeOf<ConsoleSession>();
    expectTypeOf(call<typeof consoleEndpoints.twoFactorStatus>).returns.resolves.toEqualTypeOf<TwoFactorStatus>();
    expectTypeOf(call<typeof consoleEndpoints.linkDetail>).returns.resolves.toEqualTypeOf<ConsoleLinkDetail>();
    expectTypeOf(call<typeof consoleEndpoints.linkDocuments>).returns.resolves.toEqualTypeOf<LinkDocument[]>();
    expectTypeOf(call<typeof consoleEndpoints.signOut>).returns.resolves.toEqualTypeOf<undefined>();
    expectTypeOf<BodyOf<typeof consoleEndpoints.linkReminders>>().toEqualTypeOf<{ enabled: boolean }>();
    expectTypeOf<AnswerOf<typeof consoleEndpoints.coordinators>>().toHaveProperty('coordinators');
    if (Math.random() > 2) {
      // Never runs; each line must be a type error.
      // @ts-expect-error the link id is a path param
      void call(consoleEndpoints.linkDetail, {});
      // @ts-expect-error a body the route does not take
      void call(consoleEndpoints.linkReminders, { params: { id: 'L' }, body: { on: true } });
    }
  });
});
