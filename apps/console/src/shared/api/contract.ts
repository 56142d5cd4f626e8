// The console's contract with the server (packages/shared/src/console/, one file per area, and the admin schemas). The
// console imports it from here only, so a rename in @paylink/shared is one edit.
export * from '@paylink/shared';
