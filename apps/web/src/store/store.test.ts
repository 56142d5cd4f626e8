import { beforeEach, describe, expect, it } from 'vitest';
import CryptoJS from 'crypto-js';
import { makeStore } from './store';
import { PERSIST_STORAGE_KEY } from './persist';
import { setPatient } from './patient-slice';
import { signedIn } from './auth-slice';
import { setLink } from './link-slice';
import { setPayment } from './payment-slice';
import { setContinue } from './continue-slice';

const patient = {
  firstName: 'Zelda',
  lastName: 'Quintero',
  address: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zipCode: '73301',
  phone: '5125550101',
  email: 'zelda@example.com',
  paymentSource: 1,
  paymentType: 1,
  paymentAmount: 500,
  isPaymentLinkLocked: false,
  payorName: null,
  payorEmail: null,
};

async function ready(p: ReturnType<typeof makeStore>['persistor']) {
  if (p.getState().bootstrapped) return;
  await new Promise<void>((resolve) => {
    const u = p.subscribe(() => {
      if (p.getState().bootstrapped) {
        u();
        resolve();
      }
    });
  });
}

async function storeWithData(passphrase: string) {
  const { store, persistor } = makeStore({ passphrase });
  await ready(persistor);
  store.dispatch(setLink({ link_id: 'AbCdEfGhIjKlMnOpQrStUv12' }));
  store.dispatch(signedIn({ token: 'secret.jwt.token', expiresAt: '2030-01-01T00:00:00.000Z', email: 'z@e.com' }));
  store.dispatch(setPatient(patient));
  store.dispatch(setPayment({ ssl_txn_id: 'TXN-42', ssl_amount: '500.00' }));
  store.dispatch(setContinue(true));
  await persistor.flush();
  return store;
}

describe('persisted state', () => {
  beforeEach(() => window.localStorage.clear());

  it('is stored under one root key, version 1, every slice AES-encrypted (not readable JSON)', async () => {
    await storeWithData('right-key');
    const raw = window.localStorage.getItem(PERSIST_STORAGE_KEY)!;
    expect(raw).toBeTruthy();
    expect(Object.keys(window.localStorage).filter((k) => k.startsWith('persist:'))).toEqual([PERSIST_STORAGE_KEY]);
    for (const secret of ['Zelda', 'Quintero', 'TXN-42', 'zelda@example.com', 'AbCdEfGhIjKlMnOpQrStUv12']) {
      expect(raw).not.toContain(secret);
    }
    const outer = JSON.parse(raw) as Record<string, string>;
    for (const key of ['step', 'patient', 'payment', 'stepProduction', 'continue', 'auth', 'link']) {
      const value = JSON.parse(outer[key]!) as string;
      expect(value.startsWith('U2FsdGVkX1'), key).toBe(true); // OpenSSL "Salted__" AES-CBC output
      expect(() => JSON.parse(value)).toThrow();
    }
    const meta = CryptoJS.AES.decrypt(JSON.parse(outer._persist!) as string, 'right-key').toString(CryptoJS.enc.Utf8);
    expect(JSON.parse(meta)).toMatchObject({ version: 1 });
  });

  it('decrypts with the passphrase, and never writes the session token', async () => {
    await storeWithData('right-key');
    const outer = JSON.parse(window.localStorage.getItem(PERSIST_STORAGE_KEY)!) as Record<string, string>;
    const auth = JSON.parse(
      CryptoJS.AES.decrypt(JSON.parse(outer.auth!) as string, 'right-key').toString(CryptoJS.enc.Utf8),
    );
    expect(auth).toEqual({ access_token: '', auth_email: 'z@e.com', exp_Date: '2030-01-01T00:00:00.000Z' });
    expect(window.localStorage.getItem(PERSIST_STORAGE_KEY)).not.toContain('secret.jwt.token');
  });

  it('rehydrates everything but the token with the same key', async () => {
    await storeWithData('right-key');
    const { store, persistor } = makeStore({ passphrase: 'right-key' });
    await ready(persistor);
    const s = store.getState();
    expect(s.patient.patient[0]?.firstName).toBe('Zelda');
    expect(s.payment.ssl_txn_id).toBe('TXN-42');
    expect(s.continue.isContinue).toBe(true);
    expect(s.link.link_id).toBe('AbCdEfGhIjKlMnOpQrStUv12');
    expect(s.auth.exp_Date).toBe('2030-01-01T00:00:00.000Z');
    expect(s.auth.access_token).toBe('');
  });

  it('reads state that the crypto-js transform wrote before the WebCrypto change (no migration needed)', async () => {
    // What redux-persist-transform-encrypt 5 + crypto-js 4 stored: each slice's JSON, AES.encrypt(json, key).
    const old = (v: unknown) => JSON.stringify(CryptoJS.AES.encrypt(JSON.stringify(v), 'right-key').toString());
    window.localStorage.setItem(
      PERSIST_STORAGE_KEY,
      JSON.stringify({
        patient: old({ patient: [patient] }),
        link: old({ redirect_link: '', link_id: 'AbCdEfGhIjKlMnOpQrStUv12' }),
        continue: old({ isContinue: true }),
        _persist: old({ version: 1, rehydrated: true }),
      }),
    );
    const { store, persistor } = makeStore({ passphrase: 'right-key' });
    await ready(persistor);
    const s = store.getState();
    expect(s.patient.patient[0]?.lastName).toBe('Quintero');
    expect(s.link.link_id).toBe('AbCdEfGhIjKlMnOpQrStUv12');
    expect(s.continue.isContinue).toBe(true);
  });

  it('a wrong key gives a clean state', async () => {
    await storeWithData('right-key');
    const { store, persistor } = makeStore({ passphrase: 'another-key' });
    await ready(persistor);
    const s = store.getState();
    expect(s.patient).toEqual({ patient: [] });
    expect(s.payment.ssl_txn_id).toBe('');
    expect(s.continue).toEqual({ isContinue: false });
    expect(s.link).toEqual({ redirect_link: '', link_id: '' });
    expect(s.auth).toEqual({ access_token: '', auth_email: '', exp_Date: '' });
    expect(s.stepProduction).toEqual({ stepsProduction: [] });
  });

  it('starts from the spec initial values', async () => {
    const { store, persistor } = makeStore({ passphrase: 'k' });
    await ready(persistor);
    const { _persist: _, ...s } = store.getState() as ReturnType<typeof store.getState> & { _persist: unknown };
    expect(s).toEqual({
      step: { steps: [] },
      patient: { patient: [] },
      payment: {
        ssl_txn_id: '',
        ssl_approval_code: '',
        ssl_last_name: '',
        ssl_result_message: '',
        ssl_token_response: '',
        ssl_transaction_type: '',
        ssl_amount: '',
      },
      stepProduction: { stepsProduction: [] },
      continue: { isContinue: false },
      auth: { access_token: '', auth_email: '', exp_Date: '' },
      link: { redirect_link: '', link_id: '' },
    });
  });
});
