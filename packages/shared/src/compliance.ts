import { z } from 'zod';

/** PCI DSS 6.4.3 / 11.6.1 for the payment page (issue 11): what staff see of the script inventory and checks. */
export const inventoryScriptSchema = z.object({
  url: z.string(),
  owner: z.enum(['paylink', 'gateway', 'captcha']),
  loadedAs: z.string(),
  integrity: z.string().nullable(),
  bytes: z.number().int().nullable(),
  /** Why the page runs it, as a code the console words in the reader's language (issue 29, item 11). */
  purpose: z.enum(['entry', 'preload', 'stylesheet', 'lazy', 'checkout', 'threeDS', 'captcha']),
  /** The same in English, for the API and the CLI. */
  justification: z.string(),
});

export const tamperFindingSchema = z.object({ kind: z.string(), detail: z.string() });

export const tamperCheckSchema = z.object({
  id: z.string(),
  ranAt: z.string(),
  trigger: z.enum(['schedule', 'staff']),
  ok: z.boolean(),
  pageUrl: z.string(),
  findings: z.array(tamperFindingSchema),
});
export type TamperCheck = z.infer<typeof tamperCheckSchema>;

export const complianceScriptsResultSchema = z.object({
  built: z.boolean(),
  generatedAt: z.string().nullable(),
  scripts: z.array(inventoryScriptSchema),
  inlineScripts: z.array(z.object({ purpose: z.string(), cspHash: z.string() })),
  contentSecurityPolicy: z.string(),
  lastCheck: tamperCheckSchema.nullable(),
});
export type ComplianceScriptsResult = z.infer<typeof complianceScriptsResultSchema>;

export const tamperCheckResultSchema = tamperCheckSchema.extend({
  scriptsChecked: z.number().int(),
  alerted: z.boolean(),
});

export const tamperChecksResultSchema = z.object({ checks: z.array(tamperCheckSchema) });

export const cspReportSchema = z.object({
  id: z.string(),
  receivedAt: z.string(),
  documentUri: z.string(),
  blockedUri: z.string(),
  effectiveDirective: z.string(),
  sourceFile: z.string(),
  lineNumber: z.number().int().nullable(),
  sample: z.string(),
});
export const cspReportsResultSchema = z.object({ reports: z.array(cspReportSchema), total: z.number().int() });

export const complianceListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1, 'limit must be 1 to 500').max(500, 'limit must be 1 to 500').default(100),
  })
  .strict();
