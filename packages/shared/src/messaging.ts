import { z } from 'zod';

/** Messaging (issue 14): link sends, delivery statuses, reminders, consent and staff notifications. */

export const MessageChannels = ['sms', 'email'] as const;
export type MessageChannel = (typeof MessageChannels)[number];

export const DeliveryStatuses = [
  'queued',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'accepted',
  'refused',
] as const;

export const sendLinkBodySchema = z.object({ channel: z.enum(MessageChannels) }).strict();

export const sentMessageSchema = z.object({ id: z.string(), channel: z.enum(MessageChannels), to: z.string() });

export const linkMessageSchema = z.object({
  id: z.string(),
  channel: z.enum(MessageChannels),
  /** link-send, link-reminder, signin-code, signin-link, ... */
  kind: z.string(),
  to: z.string(),
  subject: z.string().nullable(),
  /** The outbox's own state: pending (not yet handed to the provider), sent, failed (gave up). */
  status: z.enum(['pending', 'sent', 'failed']),
  /** What the provider reported: queued/sent/delivered/undelivered/failed (SMS), accepted/refused (e-mail). */
  deliveryStatus: z.enum(DeliveryStatuses).nullable(),
  deliveryError: z.string().nullable(),
  createdAt: z.string(),
  deliveryUpdatedAt: z.string().nullable(),
});
export type LinkMessage = z.infer<typeof linkMessageSchema>;

export const linkMessagesResultSchema = z.object({
  messages: z.array(linkMessageSchema),
  reminders: z.object({
    enabled: z.boolean(),
    /** When the scheduler looks at this link next (a reminder may or may not be due then); null = nothing planned. */
    nextCheckAt: z.string().nullable(),
    sent: z.number().int(),
    /** The patient's zone for texts and quiet hours (decision 0217), and where it came from. */
    timeZone: z.string(),
    timeZoneSource: z.enum(['address', 'area-code', 'practice']),
    /** The first instant from now outside the quiet hours in that zone; null = the link has no phone. */
    nextTextAt: z.string().nullable(),
  }),
});
export type LinkMessagesResult = z.infer<typeof linkMessagesResultSchema>;

export const linkRemindersBodySchema = z.object({ enabled: z.boolean() }).strict();

/** Durations as settings write them: 30s, 90m, 24h, 3d; null = off. */
const durationSetting = z
  .string()
  .trim()
  .regex(/^\d{1,7}(s|m|h|d)$/, 'use a duration like 30s, 90m, 24h or 3d')
  .nullable();

export const reminderPlanSchema = z.object({
  unopenedAfter: durationSetting,
  stalledAfter: durationSetting,
  beforeExpiry: z.array(durationSetting.unwrap()).max(5),
  /** Local hours with no SMS, e.g. { start: 21, end: 8 }; null = off. */
  quietHours: z
    .object({ start: z.number().int().min(0).max(23), end: z.number().int().min(0).max(23) })
    .refine((q) => q.start !== q.end, 'start and end must differ')
    .nullable(),
  minGap: durationSetting,
});
export type ReminderPlanSetting = z.infer<typeof reminderPlanSchema>;
export const reminderPlanResultSchema = reminderPlanSchema.extend({
  /** 'practice' = set in the console; 'env' = the REMINDER_* defaults. */
  source: z.enum(['practice', 'env']),
});

export const optOutSchema = z.object({
  channel: z.enum(MessageChannels),
  address: z.string(),
  source: z.string(),
  keyword: z.string().nullable(),
  optedOutAt: z.string(),
});
export const optOutListSchema = z.object({ optOuts: z.array(optOutSchema) });

export const notificationPrefsSchema = z
  .object({
    /** E-mail me when a link I created is paid. */
    onPaid: z.boolean(),
    /** E-mail me when a payment on a link I created needs attention (reconciliation flag, void approval). */
    onAttention: z.boolean(),
  })
  .strict();
