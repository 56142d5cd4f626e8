/** A refusal the client can act on: an HTTP status, a machine code and a sentence for people. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * A link that cannot be used: answered 401 with the plain-text body the client routes on (spec section 4):
 * 'Link Expired.', 'Link has been Cancelled.', 'Process has completed.' or a generic text.
 */
export class LinkStateError extends AppError {
  constructor(readonly body: string) {
    super(401, 'link_unavailable', body);
    this.name = 'LinkStateError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, 'invalid_request', message, fields);
export const unauthorized = (message = 'Sign in again to continue.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'This link belongs to someone else.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
