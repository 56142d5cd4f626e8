const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const XML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or attribute value inside HTML the server renders (pages, e-mails, sandbox scripts). */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML[c]!);

/** Text or attribute value inside XML (gateway requests and the sandbox gateway's answers). */
export const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => XML[c]!);
