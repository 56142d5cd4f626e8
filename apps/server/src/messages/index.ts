// What every module needs to send a message to a patient or a staff member, inside its own transaction: the durable
// outbox's writer, the practice's details that messages carry, and the branded e-mail layout. The outbox's worker
// (delivery, retries) stays in modules/outbox; this half is platform so the core can send without importing upward.
export { enqueueMessage, type OutboxMessageInput } from './enqueue-message.js';
export { loadPracticeInfo, type PracticeInfo } from './practice-info.js';
export { renderEmail, type EmailContent } from './email-layout.js';
export { composeEmail, smsPracticeName, type EmailTexts, type EmailWords } from './compose-email.js';
