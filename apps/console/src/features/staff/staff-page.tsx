import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createStaffBodySchema } from '@paylink/shared';
import { call, type BodyOf } from '../../shared/api/client';
import { consoleEndpoints, staffRoleSchema, type StaffListItem } from '../../shared/api/contract';
import { ConfirmDialog } from '../../shared/components/confirm-dialog';
import { TableScroll } from '../../shared/components/table-scroll';
import { PageTitle } from '../../shared/components/page-title';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { FormField } from '../../shared/forms/form-field';
import { formatDateTime } from '../../shared/lib/format';
import { useSession } from '../../shared/session/use-session';
import { ShownOnceSecret } from '../../shared/components/shown-once-secret';
import { BusyButton } from '../../shared/components/busy-button';

const ROLES = staffRoleSchema.options;
const newStaffSchema = createStaffBodySchema.extend({ role: staffRoleSchema });
interface NewStaff {
  email: string;
  name: string;
  password: string;
  role: (typeof ROLES)[number];
}

const STAFF_KEY = ['staff'];
type StaffChange = BodyOf<typeof consoleEndpoints.updateStaff>;
const updateStaff = (id: string, body: StaffChange) => call(consoleEndpoints.updateStaff, { params: { id }, body });

export function StaffPage() {
  const { t } = useTranslation();
  const staff = useQuery({
    queryKey: STAFF_KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.staff, { signal }),
  });
  return (
    <>
      <PageTitle>{t('staff.title')}</PageTitle>
      {staff.isPending ? (
        <Loading />
      ) : staff.error ? (
        <ErrorAlert error={staff.error} onRetry={() => void staff.refetch()} />
      ) : (
        <StaffTable staff={staff.data.staff} />
      )}
      <AddStaff />
    </>
  );
}

function StaffTable(props: { staff: StaffListItem[] }) {
  const { t } = useTranslation();
  const me = useSession().data?.user.id;
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [confirm, setConfirm] = useState<{ kind: 'deactivate' | 'reset' | 'password'; user: StaffListItem } | null>(
    null,
  );
  const [rowError, setRowError] = useState<string | null>(null);
  const [temporary, setTemporary] = useState<{ name: string; password: string } | null>(null);
  const change = useMutation({
    mutationFn: async (v: { user: StaffListItem; body?: StaffChange; reset?: 'twoFactor' | 'password' }) => {
      if (v.reset === 'password') {
        const r = await call(consoleEndpoints.resetStaffPassword, { params: { id: v.user.id } });
        setTemporary({ name: name(v.user), password: r.temporaryPassword });
        return r.staff;
      }
      return v.reset
        ? call(consoleEndpoints.resetStaffTwoFactor, { params: { id: v.user.id } })
        : updateStaff(v.user.id, v.body ?? {});
    },
    onSuccess: () => {
      setConfirm(null);
      setRowError(null);
      void queryClient.invalidateQueries({ queryKey: STAFF_KEY });
    },
    onError: (e) => setRowError(errorMessage(e)),
  });
  const name = (u: StaffListItem) => u.name || u.email;
  return (
    <>
      {temporary && <TemporaryPassword {...temporary} onDismiss={() => setTemporary(null)} />}
      {rowError && !confirm && (
        <div className="alert alert-danger" role="alert">
          {rowError}
        </div>
      )}
      <TableScroll className="table-responsive-md" label={t('staff.title')}>
        <table className="table bg-white border stack-table align-middle">
          <caption className="visually-hidden">{t('staff.title')}</caption>
          <thead className="table-light">
            <tr>
              <th scope="col">{t('staff.name')}</th>
              <th scope="col">{t('staff.role')}</th>
              <th scope="col">{t('staff.lastSignIn')}</th>
              <th scope="col">{t('staff.twoFactor')}</th>
              <th scope="col">{t('staff.status')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('detail.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.staff.map((u) => (
              <tr key={u.id} data-staff-email={u.email}>
                <td data-label={t('staff.name')}>
                  <div>
                    <div className="fw-semibold">
                      {name(u)} {u.id === me && <span className="text-secondary">{t('staff.you')}</span>}
                    </div>
                    <div className="small text-secondary">{u.email}</div>
                  </div>
                </td>
                <td data-label={t('staff.role')}>
                  <select
                    className="form-select form-select-sm"
                    aria-label={t('staff.changeRole', { name: name(u) })}
                    value={u.role}
                    disabled={u.id === me}
                    // Not `disabled` while saving: the list keeps the keyboard's place (decision 0235).
                    aria-disabled={change.isPending || undefined}
                    onChange={(e) =>
                      !change.isPending &&
                      change.mutate({ user: u, body: { role: staffRoleSchema.parse(e.target.value) } })
                    }
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {t(`roles.${r}`)}
                      </option>
                    ))}
                  </select>
                </td>
                <td data-label={t('staff.lastSignIn')}>
                  {u.lastSignInAt ? formatDateTime(u.lastSignInAt) : t('staff.never')}
                </td>
                <td data-label={t('staff.twoFactor')}>{u.twoFactorEnabled ? t('security.on') : t('common.no')}</td>
                <td data-label={t('staff.status')}>{u.disabledAt ? t('staff.deactivated') : t('staff.active')}</td>
                <td>
                  {u.id !== me && (
                    <div className="d-flex flex-wrap gap-1 justify-content-end">
                      {u.disabledAt ? (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-primary"
                          onClick={() => change.mutate({ user: u, body: { disabled: false } })}
                        >
                          {t('staff.reactivate')}
                          <span className="visually-hidden"> {name(u)}</span>
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-danger"
                          onClick={() => setConfirm({ kind: 'deactivate', user: u })}
                        >
                          {t('staff.deactivate')}
                          <span className="visually-hidden"> {name(u)}</span>
                        </button>
                      )}
                      {!u.disabledAt && (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-secondary"
                          onClick={() => setConfirm({ kind: 'password', user: u })}
                        >
                          {t('staff.resetPassword')}
                          <span className="visually-hidden"> {name(u)}</span>
                        </button>
                      )}
                      {u.twoFactorEnabled && (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-secondary"
                          onClick={() => setConfirm({ kind: 'reset', user: u })}
                        >
                          {t('staff.resetTwoFactor')}
                          <span className="visually-hidden"> {name(u)}</span>
                        </button>
                      )}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <ConfirmDialog
        show={!!confirm}
        title={confirm ? t(CONFIRM[confirm.kind].title, { name: name(confirm.user) }) : ''}
        body={confirm ? t(CONFIRM[confirm.kind].body) : ''}
        confirmLabel={confirm ? t(CONFIRM[confirm.kind].label) : ''}
        danger
        busy={change.isPending}
        error={confirm ? rowError : null}
        onConfirm={() =>
          confirm &&
          change.mutate(
            confirm.kind === 'deactivate'
              ? { user: confirm.user, body: { disabled: true } }
              : { user: confirm.user, reset: confirm.kind === 'reset' ? 'twoFactor' : 'password' },
          )
        }
        onCancel={() => {
          setConfirm(null);
          setRowError(null);
        }}
      />
    </>
  );
}

const CONFIRM = {
  deactivate: { title: 'staff.deactivateTitle', body: 'staff.deactivateBody', label: 'staff.deactivate' },
  reset: { title: 'staff.resetTitle', body: 'staff.resetBody', label: 'staff.resetTwoFactor' },
  password: { title: 'staff.resetPasswordTitle', body: 'staff.resetPasswordBody', label: 'staff.resetPassword' },
} as const;

/** An admin's reset answers a temporary password once: shown here until dismissed, never again. */
function TemporaryPassword(props: { name: string; password: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceSecret
      title={t('staff.temporaryTitle', { name: props.name })}
      help={t('staff.temporaryHelp')}
      secret={props.password}
      copyLabel={t('staff.copy')}
      closeLabel={t('staff.dismiss')}
      onClose={props.onDismiss}
      secretTestId="temporary-password"
    />
  );
}

function AddStaff() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const form = useForm<NewStaff>({
    resolver: zodResolver(newStaffSchema) as never,
    defaultValues: { email: '', name: '', password: '', role: 'coordinator' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    setAdded(null);
    try {
      await call(consoleEndpoints.createStaff, { body: values });
      setAdded(values.name || values.email);
      form.reset();
      void queryClient.invalidateQueries({ queryKey: STAFF_KEY });
    } catch (e) {
      setFailure(errorMessage(e));
    }
  });
  return (
    <section className="card mt-4" aria-labelledby="add-staff-heading">
      <form className="card-body row" noValidate onSubmit={(e) => void submit(e)}>
        <h2 id="add-staff-heading" className="h5 col-12">
          {t('staff.add')}
        </h2>
        <FormField
          name="name"
          label={t('staff.name')}
          error={errors.name}
          className="col-md-6 mb-3"
          registration={form.register('name')}
          autoComplete="off"
        />
        <FormField
          name="email"
          label={t('staff.email')}
          error={errors.email}
          className="col-md-6 mb-3"
          registration={form.register('email')}
          type="email"
          autoComplete="off"
        />
        <FormField
          name="role"
          label={t('staff.role')}
          error={errors.role}
          className="col-md-6 mb-3"
          as="select"
          registration={form.register('role')}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`roles.${r}`)}
            </option>
          ))}
        </FormField>
        <FormField
          name="newPassword"
          label={t('staff.password')}
          hint={t('staff.passwordHint')}
          error={errors.password}
          className="col-md-6 mb-3"
          registration={form.register('password')}
          type="password"
          autoComplete="new-password"
        />
        <div className="col-12" aria-live="polite">
          {added && (
            <div className="alert alert-success" role="status">
              {t('staff.created', { name: added })}
            </div>
          )}
          {failure && (
            <div className="alert alert-danger" role="alert">
              {failure}
            </div>
          )}
        </div>
        <div className="col-12">
          <BusyButton type="submit" className="btn btn-primary" busy={isSubmitting}>
            {t('staff.add')}
          </BusyButton>
        </div>
      </form>
    </section>
  );
}
