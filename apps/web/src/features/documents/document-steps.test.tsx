import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ContractPage from './contract-page';
import InvoicePage from './invoice-page';
import PatientIdPage from './patient-id-page';
import PayorIdPage from './payor-id-page';
import {
  LINK_ID,
  SIGN_ORIGIN,
  fakeServer,
  postSigningMessage,
  renderStepPage,
  stepList,
} from '../../test/document-harness';
import { entryAction } from '../../lib/use-step-navigation';
import { isSigningCompletedMessage } from '../../lib/use-signing-message';

// Rendering whole pages on a busy 2-core machine: room for slow runs, not a timing assertion.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const stepPuts = (calls: { method: string; path: string; query: Record<string, string> }[]) =>
  calls.filter((c) => c.method === 'PUT' && c.path === '/api/linksteps').map((c) => c.query);

describe('entry status rules (spec section 4)', () => {
  it('continuing clears the flag; 2 and 4 are left alone; anything else becomes 2', () => {
    expect(entryAction(true, 1)).toBe('clearContinue');
    expect(entryAction(true, 4)).toBe('clearContinue');
    expect(entryAction(false, 2)).toBe('none');
    expect(entryAction(false, 4)).toBe('none');
    expect(entryAction(false, 1)).toBe('setInProgress');
    expect(entryAction(false, undefined)).toBe('setInProgress');
  });

  it('sets a fresh step in progress once on entry', async () => {
    const { calls } = fakeServer();
    const { store } = await renderStepPage({ path: '/patientinvoicedetail', element: <InvoicePage /> });
    await waitFor(() => expect(stepPuts(calls)).toHaveLength(1));
    expect(stepPuts(calls)[0]).toEqual({ linkId: LINK_ID, linkStepId: '101', LinkStepStatusId: '2' });
    await waitFor(() => expect(store.getState().stepProduction.stepsProduction[0]?.[1]?.linkStepStatusId).toBe(2));
    expect(stepPuts(calls)).toHaveLength(1);
  });

  it('makes no call when the step is already in progress', async () => {
    const { calls } = fakeServer();
    await renderStepPage({
      path: '/patientcontract',
      element: <ContractPage />,
      steps: stepList(1, { '/patientinvoicedetail': 4, '/patientiddocs': 4, '/patientcontract': 2 }),
    });
    await screen.findByRole('heading', { name: 'Patient Contract' });
    expect(stepPuts(calls)).toEqual([]);
  });

  it('continuing a previous session clears the continue flag and makes no call', async () => {
    const { calls } = fakeServer();
    const { store } = await renderStepPage({ path: '/patientiddocs', element: <PatientIdPage />, isContinue: true });
    await waitFor(() => expect(store.getState().continue.isContinue).toBe(false));
    expect(stepPuts(calls)).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe('signing and Next', () => {
  it('enables Next only for the completion message from the signing origin, then completes the step', async () => {
    const { calls } = fakeServer();
    const { store } = await renderStepPage({ path: '/patientinvoicedetail', element: <InvoicePage /> });
    const next = await screen.findByRole('button', { name: 'Next' });
    await waitFor(() => expect(stepPuts(calls)).toHaveLength(1));
    expect(next).toBeDisabled();

    act(() => postSigningMessage({ origin: 'https://evil.example' }));
    act(() => postSigningMessage({ origin: `${SIGN_ORIGIN}.evil.example` }));
    act(() => postSigningMessage({ action: 'submission-started' }));
    act(() => postSigningMessage({ source: window }));
    expect(next).toBeDisabled();
    expect(screen.getByText('Complete the document above to continue.')).toBeInTheDocument();

    act(() => postSigningMessage());
    await waitFor(() => expect(next).toBeEnabled());
    expect(screen.getByText('Document completed. You can continue.')).toBeInTheDocument();

    await userEvent.click(next);
    expect(await screen.findByTestId('landed')).toHaveTextContent('/patientiddocs');
    expect(stepPuts(calls)[1]).toEqual({ linkId: LINK_ID, linkStepId: '101', LinkStepStatusId: '4' });
    expect(store.getState().stepProduction.stepsProduction[0]?.[1]?.linkStepStatusId).toBe(4);
  });

  it('the contract goes to the payment step and its frame is 575 px high', async () => {
    fakeServer();
    await renderStepPage({
      path: '/patientcontract',
      element: <ContractPage />,
      steps: stepList(1, { '/patientinvoicedetail': 4, '/patientiddocs': 4 }),
    });
    const frame = await screen.findByTitle('Contract to review and sign');
    expect(frame.parentElement).toHaveStyle({ height: '575px' });
    expect(frame).toHaveAttribute('src', `${SIGN_ORIGIN}/s/token-3-patientcontract?lng=en`);
    act(() => postSigningMessage());
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/paymentauthorization');
  });

  it('shows Error {status} {statusText} full-page when completing fails', async () => {
    fakeServer((c) =>
      c.query.LinkStepStatusId === '4'
        ? {
            status: 409,
            statusText: 'Conflict',
            json: { error: 'document_not_signed', message: 'Sign the document before continuing.' },
          }
        : { json: {} },
    );
    await renderStepPage({ path: '/patientinvoicedetail', element: <InvoicePage /> });
    act(() => postSigningMessage());
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Error 409 Conflict' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('a link that expired meanwhile goes to /linkexpired', async () => {
    fakeServer(() => ({ status: 401, statusText: 'Unauthorized', text: 'Link Expired.' }));
    await renderStepPage({ path: '/patientinvoicedetail', element: <InvoicePage /> });
    expect(await screen.findByTestId('landed')).toHaveTextContent('/linkexpired');
  });
});

describe('ID document pages', () => {
  it('shows the instruction text and the five-item list (EN)', async () => {
    fakeServer();
    await renderStepPage({ path: '/patientiddocs', element: <PatientIdPage /> });
    expect(await screen.findByRole('heading', { name: 'Patient Identification Documents' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Upload instructions' });
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toHaveLength(5);
    expect(items).toContain('Do not upload the same document twice.');
    expect(items).toContain('Make sure the document is legible, valid and not expired.');
    expect(items).toContain('Show all four corners of the document, without glare.');
    expect(items).toContain('Upload both the front and the back when asked.');
    expect(screen.getByTitle("Upload the patient's identification documents")).toBeInTheDocument();
  });

  it('speaks Spanish on the payor step and passes the language to the frame', async () => {
    fakeServer();
    await renderStepPage({ path: '/payoriddocs', element: <PayorIdPage />, steps: stepList(2), lng: 'es' });
    expect(
      await screen.findByRole('heading', { name: 'Documentos de identificación del pagador' }),
    ).toBeInTheDocument();
    const items = within(screen.getByRole('list', { name: 'Indicaciones para subir documentos' })).getAllByRole(
      'listitem',
    );
    expect(items).toHaveLength(5);
    expect(items[1]).toHaveTextContent('No suba el mismo documento dos veces.');
    expect(screen.getByTitle('Suba los documentos de identificación del pagador').getAttribute('src')).toMatch(
      /\?lng=es$/,
    );
    expect(screen.getByRole('button', { name: 'Siguiente' })).toBeDisabled();
  });
});

describe('isSigningCompletedMessage', () => {
  const frameWindow = {} as Window;
  const ok = { origin: SIGN_ORIGIN, data: { action: 'submission-completed' }, source: frameWindow };
  it('accepts only the signing origin, the frame and the action', () => {
    expect(isSigningCompletedMessage(ok, SIGN_ORIGIN, frameWindow)).toBe(true);
    expect(isSigningCompletedMessage({ ...ok, origin: 'http://localhost:8080' }, SIGN_ORIGIN, frameWindow)).toBe(false);
    expect(isSigningCompletedMessage({ ...ok, source: window }, SIGN_ORIGIN, frameWindow)).toBe(false);
    expect(isSigningCompletedMessage({ ...ok, data: 'submission-completed' }, SIGN_ORIGIN, frameWindow)).toBe(false);
    expect(isSigningCompletedMessage(ok, '', frameWindow)).toBe(false);
  });
});
