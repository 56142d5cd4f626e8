import { useTranslation } from 'react-i18next';

/** A gateway answer ("DECLINED: NSF") as its catalogue key: capitals, any other characters as one "_". */
export const gatewayKey = (raw: string) =>
  raw
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * A code the server sent (a gateway's answer, a failure kind, a sign-in reason), in the reader's language from the
 * `codes.<group>` catalogue, with the raw code after it as a secondary <code> for support. An unknown code is shown
 * raw (issue 29, item 11).
 */
export function ServerCode(props: { group: 'gateway' | 'failure' | 'signIn'; code: string }) {
  const { t, i18n } = useTranslation();
  const key = `codes.${props.group}.${props.group === 'gateway' ? gatewayKey(props.code) : props.code}`;
  const known = i18n.exists(key);
  return (
    <>
      {known && (
        <>
          <span>{t(key)}</span>{' '}
        </>
      )}
      <code className={known ? 'text-secondary' : undefined}>{props.code}</code>
    </>
  );
}

/** A payment attempt's decline text: a gateway answer, or the payment page's failure kind when that is all we have. */
export function DeclineReason(props: { reason: string }) {
  const { i18n } = useTranslation();
  return (
    <ServerCode group={i18n.exists(`codes.failure.${props.reason}`) ? 'failure' : 'gateway'} code={props.reason} />
  );
}
