import type { TFunction } from '../../i18n';
import { selectDeclineMessage } from '@paylink/shared';
import type { GatewayResponse } from './gateway/types';

/**
 * The decline modal's message (spec section 8), in the page's language: the gateway's error (translated by its
 * code when we know it), else the CVV text, else the AVS text, else the gateway's result message.
 */
export function declineMessageText(response: GatewayResponse, t: TFunction): string {
  const m = selectDeclineMessage(response);
  switch (m.kind) {
    case 'error': {
      const code = String(response.errorCode ?? '').trim();
      return /^\d+$/.test(code) ? t(`gatewayError.${code}`, { defaultValue: m.text }) : m.text;
    }
    case 'cvv':
      return t(`cvv.${m.code}`);
    case 'avs':
      return t(`avs.${m.code}`);
    case 'result':
      return /^[A-Z][A-Z ]*$/.test(m.text) ? t(`resultMessage.${m.text}`, { defaultValue: m.text }) : m.text;
  }
}
