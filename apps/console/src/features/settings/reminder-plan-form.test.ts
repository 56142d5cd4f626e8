import { describe, expect, it } from 'vitest';
import { reminderPlanSchema } from '../../shared/api/contract';
import { toPlanBody, toPlanForm } from './reminder-plan-form';

describe('reminder plan form ↔ API body', () => {
  it('empty durations turn reminders off; expiry list split on commas; quiet hours as numbers', () => {
    const body = toPlanBody({
      unopenedAfter: '',
      stalledAfter: ' 48H ',
      beforeExpiry: '72h, 24h,',
      quietOn: true,
      quietStart: '21',
      quietEnd: '8',
      minGap: '24h',
    });
    expect(body).toEqual({
      unopenedAfter: null,
      stalledAfter: '48h',
      beforeExpiry: ['72h', '24h'],
      quietHours: { start: 21, end: 8 },
      minGap: '24h',
    });
    expect(reminderPlanSchema.safeParse(body).success).toBe(true);
    expect(toPlanForm(body)).toMatchObject({ unopenedAfter: '', beforeExpiry: '72h, 24h', quietOn: true });
  });

  it('the shared schema refuses what the server would', () => {
    const bad = toPlanBody({
      ...toPlanForm(
        reminderPlanSchema.parse({
          unopenedAfter: '1d',
          stalledAfter: null,
          beforeExpiry: [],
          quietHours: null,
          minGap: null,
        }),
      ),
      stalledAfter: 'soon',
    });
    expect(reminderPlanSchema.safeParse(bad).success).toBe(false);
    expect(
      toPlanBody({ ...toPlanForm(bad), stalledAfter: '', quietOn: true, quietStart: '8', quietEnd: '8' }).quietHours,
    ).toEqual({ start: 8, end: 8 });
    expect(
      reminderPlanSchema.safeParse(
        toPlanBody({ ...toPlanForm(bad), stalledAfter: '', quietOn: true, quietStart: '8', quietEnd: '8' }),
      ).success,
    ).toBe(false);
  });
});
