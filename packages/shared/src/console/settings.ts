import { z } from 'zod';
import { iso } from './wire.js';

const timeZone = z
  .string()
  .max(100)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'timeZone must be an IANA time zone such as America/Chicago');

/** A logo: an https URL or a PNG/JPEG data URL of at most ~200 KB. */
const logoUrl = z
  .string()
  .max(280_000)
  .refine(
    (v) => /^https:\/\/\S+$/.test(v) || /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*$/.test(v),
    'logoUrl must be an https URL or a PNG/JPEG data URL',
  );

export const practiceSettingsSchema = z.object({
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  logoUrl: z.string().nullable(),
  timeZone: z.string(),
});
export type PracticeSettings = z.infer<typeof practiceSettingsSchema>;

/** GET /api/admin/settings: what the product uses (override ?? env default), and both sides. */
export const practiceSettingsResultSchema = z.object({
  effective: practiceSettingsSchema,
  defaults: practiceSettingsSchema,
  /** null = not overridden (the env default applies). */
  overrides: z.object({
    name: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    logoUrl: z.string().nullable(),
    timeZone: z.string().nullable(),
  }),
  updatedAt: iso.nullable(),
});
/** PUT /api/admin/settings (admin): a field set to null goes back to the env default; an absent field is kept. */
export const updatePracticeSettingsBodySchema = z
  .object({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    phone: z.string().trim().min(1).max(50).nullable().optional(),
    email: z.email('email must be an e-mail address').max(320).nullable().optional(),
    logoUrl: logoUrl.nullable().optional(),
    timeZone: timeZone.nullable().optional(),
  })
  .strict();

/** The practice's contract per language (console Settings; decision 0168). */
export const contractLangParamsSchema = z.object({ lang: z.enum(['en', 'es']) });
export const contractStatusSchema = z.object({
  lang: z.enum(['en', 'es']),
  source: z.enum(['upload', 'env', 'sample']).describe('the console upload, CONTRACT_PDF_PATH(_ES), or the sample'),
  fallback: z.boolean().describe('Spanish readers get the English contract with a note in Spanish'),
  upload: z
    .object({
      fileName: z.string(),
      sizeBytes: z.number(),
      pageCount: z.number(),
      sha256: z.string(),
      uploadedAt: z.string(),
      uploadedBy: z.string().nullable(),
    })
    .nullable(),
});
export type ContractStatus = z.infer<typeof contractStatusSchema>;
export const contractsResultSchema = z.object({
  contracts: z.array(contractStatusSchema),
  maxMb: z.number(),
  maxPages: z.number().describe('CONTRACT_MAX_PAGES'),
});
export type ContractsResult = z.infer<typeof contractsResultSchema>;
/** What an upload had taken off before it was stored (issue 26; decision 0195): nothing that runs reaches a reader. */
export const contractRemovedKindSchema = z.enum(['scripts', 'actions', 'attachments', 'media', 'forms']);
export type ContractRemovedKind = z.infer<typeof contractRemovedKindSchema>;
export const contractUploadResultSchema = contractsResultSchema.extend({ removed: z.array(contractRemovedKindSchema) });
export type ContractUploadResult = z.infer<typeof contractUploadResultSchema>;
export const contractPdfQuerySchema = z.object({ download: z.enum(['0', '1']).optional() });
/** The upload is the PDF itself as the body (no JSON body schema); the file name rides in the query. */
export const contractUploadQuerySchema = z.object({ fileName: z.string().max(400).optional() });
