import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { setupMsw } from '../../test/msw';
import { renderApp } from '../../test/render-app';

setupMsw();

describe('error pages (spec section 8): one title each, in both languages', () => {
  it.each([
    [
      '/linkexpired',
      'The link has expired. Please contact your sales coordinator for a new link.',
      'El enlace venció. Comuníquese con su coordinador de ventas para recibir uno nuevo.',
    ],
    [
      '/linkcancelled',
      'The link has been cancelled. Please contact your sales coordinator for a new link.',
      'El enlace fue cancelado. Comuníquese con su coordinador de ventas para recibir uno nuevo.',
    ],
    [
      '/stepscomplete',
      'Process has been completed and Payment has been made. No further action required...',
      'El proceso está terminado y el pago ya se realizó. No necesita hacer nada más...',
    ],
    ['/notauthorized', 'Not Authorized', 'No autorizado'],
    ['/forbidden', 'Forbidden', 'Acceso denegado'],
    [
      '/paymenterror',
      'Error processing payment. Please contact your sales coordinator for more information',
      'No pudimos procesar el pago. Comuníquese con su coordinador de ventas para más información',
    ],
    ['/no/such/page', 'Not Found', 'Página no encontrada'],
  ])('%s', async (path, en, es) => {
    const a = await renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: en })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    // The practice's name and the language switch are on every page.
    expect(await screen.findByText('Bella Vista Plastic Surgery')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Language' })).toBeInTheDocument();
    a.unmount();
    await renderApp(path, { lng: 'es' });
    expect(await screen.findByRole('heading', { level: 1, name: es })).toBeInTheDocument();
  });

  it('/ with a link id goes to sign-in; without one it is forbidden', async () => {
    const { router } = await renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Forbidden' })).toBeInTheDocument();
    expect(router.location().pathname).toBe('/');
  });
});
