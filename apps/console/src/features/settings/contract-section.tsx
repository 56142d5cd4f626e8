import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { buildUrl, call } from '../../shared/api/client';
import { consoleEndpoints, fillPath, type ContractStatus, type ContractsResult } from '../../shared/api/contract';
import { ConfirmDialog } from '../../shared/components/confirm-dialog';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { formatDateTime } from '../../shared/lib/format';
import { BusyButton } from '../../shared/components/busy-button';

type Lang = 'en' | 'es';
export type { ContractStatus };
const KEY = ['settings', 'contracts'];
const pdfUrl = (lang: Lang, download?: boolean) =>
  buildUrl(fillPath(consoleEndpoints.contractPdf.path, { lang }), download ? { download: 1 } : undefined);

/** "245 KB", "1.2 MB". */
export function formatBytes(n: number, locale: string): string {
  const f = (v: number, unit: string) =>
    `${new Intl.NumberFormat(locale, { maximumFractionDigits: v < 10 ? 1 : 0 }).format(v)} ${unit}`;
  if (n < 1024 * 1024) return f(Math.max(n / 1024, 0.1), 'KB');
  return f(n / (1024 * 1024), 'MB');
}

/** The practice's contract per language (admins; decision 0168): what new links get, upload, open, remove. */
export function ContractSection() {
  const { t } = useTranslation();
  const headingId = useId();
  const contracts = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.contracts, { signal }),
  });
  return (
    <section className="card mt-4" aria-labelledby={headingId}>
      <div className="card-body">
        <h2 id={headingId} className="h5">
          {t('contracts.title')}
        </h2>
        <p>{t('contracts.intro')}</p>
        {contracts.isPending ? (
          <Loading />
        ) : contracts.error ? (
          <ErrorAlert error={contracts.error} onRetry={() => void contracts.refetch()} />
        ) : (
          contracts.data.contracts.map((c) => (
            <ContractLanguage key={c.lang} status={c} maxMb={contracts.data.maxMb} maxPages={contracts.data.maxPages} />
          ))
        )}
      </div>
    </section>
  );
}

function ContractLanguage(props: { status: ContractStatus; maxMb: number; maxPages: number }) {
  const { t, i18n } = useTranslation();
  const { status, maxMb, maxPages } = props;
  const lang = status.lang;
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const inputId = useId();
  const hintId = useId();
  const headingId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const locale = i18n.language === 'es' ? 'es-US' : 'en-US';

  const message = (e: unknown) => errorMessage(e, { maxMb, maxPages });
  const settle = (d: ContractsResult, text: string) => {
    queryClient.setQueryData(KEY, d);
    setDone(text);
    setFile(null);
    if (fileRef.current) fileRef.current.value = '';
  };
  const upload = useMutation({
    mutationFn: (f: File) =>
      call(consoleEndpoints.uploadContract, {
        params: { lang },
        query: { fileName: f.name },
        file: f,
        headers: { 'content-type': 'application/pdf' },
      }),
    onSuccess: (d) => {
      const list = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
        d.removed.map((k) => t(`contracts.removedKind.${k}`)),
      );
      settle(
        d,
        d.removed.length ? `${t('contracts.uploaded')} ${t('contracts.cleaned', { list })}` : t('contracts.uploaded'),
      );
    },
    onError: (e) => setProblem(message(e)),
  });
  const remove = useMutation({
    mutationFn: () => call(consoleEndpoints.removeContract, { params: { lang } }),
    onSuccess: (d) => {
      setConfirming(false);
      settle(d, t('contracts.removed'));
    },
  });

  const submit = () => {
    setDone(null);
    setProblem(null);
    // The server checks again; these two only save a pointless upload.
    if (!file) return setProblem(t('errors.codes.contract_empty'));
    if (file.size > maxMb * 1024 * 1024) return setProblem(t('errors.codes.contract_too_large', { maxMb }));
    upload.mutate(file);
  };

  const u = status.upload;
  const effect =
    status.source === 'upload' && u
      ? t('contracts.inEffectUpload', {
          fileName: u.fileName,
          size: formatBytes(u.sizeBytes, locale),
          pages: u.pageCount,
          when: formatDateTime(u.uploadedAt),
          who: u.uploadedBy ?? '—',
        })
      : status.fallback
        ? t('contracts.inEffectFallback')
        : status.source === 'env'
          ? t(lang === 'es' ? 'contracts.inEffectEnvEs' : 'contracts.inEffectEnv')
          : t('contracts.inEffectSample');
  const langName = t(`contracts.lang.${lang}`);

  return (
    <div className="border rounded p-3 mb-3" role="group" aria-labelledby={headingId}>
      <h3 id={headingId} className="h6">
        {t('contracts.languageHeading', { language: langName })}
      </h3>
      <p className="mb-2">
        <span className="fw-semibold">{t('contracts.inEffect')}</span> {effect}
      </p>
      <p className="d-flex flex-wrap gap-2 mb-3">
        <a className="btn btn-sm btn-outline-primary" href={pdfUrl(lang)} target="_blank" rel="noopener">
          {t('contracts.view')}
          <span className="visually-hidden"> ({langName})</span>
        </a>
        <a className="btn btn-sm btn-outline-primary" href={pdfUrl(lang, true)} download={`contract-${lang}.pdf`}>
          {t('contracts.download')}
          <span className="visually-hidden"> ({langName})</span>
        </a>
        {u && (
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setConfirming(true)}>
            {t('contracts.remove')}
            <span className="visually-hidden"> ({langName})</span>
          </button>
        )}
      </p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={inputId} className="form-label">
          {t('contracts.fileLabel', { language: langName })}
        </label>
        <div className="d-flex flex-wrap gap-2 align-items-start">
          <input
            ref={fileRef}
            id={inputId}
            type="file"
            accept="application/pdf,.pdf"
            className="form-control w-auto mw-100"
            aria-describedby={hintId}
            aria-invalid={problem ? true : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setProblem(null);
              setDone(null);
            }}
          />
          <BusyButton type="submit" className="btn btn-primary" busy={upload.isPending}>
            {t('contracts.upload')}
            <span className="visually-hidden"> ({langName})</span>
          </BusyButton>
        </div>
        <div id={hintId} className="form-text">
          {t('contracts.fileHint', { maxMb, maxPages })}
        </div>
      </form>
      <div aria-live="polite">
        {done && (
          <div className="alert alert-success mt-2 mb-0" role="status">
            {done}
          </div>
        )}
        {problem && (
          <div className="alert alert-danger mt-2 mb-0" role="alert">
            {problem}
          </div>
        )}
      </div>
      <ConfirmDialog
        show={confirming}
        title={t('contracts.removeTitle', { language: langName })}
        body={t(lang === 'es' ? 'contracts.removeBodyEs' : 'contracts.removeBody')}
        confirmLabel={t('contracts.remove')}
        danger
        busy={remove.isPending}
        error={remove.error ? message(remove.error) : null}
        onConfirm={() => {
          setDone(null);
          remove.mutate();
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
