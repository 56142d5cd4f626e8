export { checkContractFiles } from './check-contract-files.js';
export { contractAdminRoutes } from './contract-admin-routes.js';
export { cleanStoredContracts } from './contracts.js';
export { documentAdminRoutes } from './document-admin-routes.js';
export { PdfWriter, ownBytes } from './pdf-writer.js';
export { isStepDocumentComplete, signingStepDocuments } from './prepare-step-documents.js';
export { buildSignServer } from './sign-server.js';
export { listLinkSubmissions, listSubmissionFiles, sha256Hex } from './submission-queries.js';
