// The console's contract with the server (issue-13a's packages/shared/src/console.ts and the admin schemas). The
// console imports it from here only, so a rename in @paylink/shared is one edit.
export * from '@paylink/shared';
