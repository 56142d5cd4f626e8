export declare const ROOT: string;
export declare const BUILT: string;
export declare const V8_FLAGS: string[];
/** Environment the server process starts with (read by the C library at start: not settable from .env). */
export declare const SERVE_ENV: { MALLOC_ARENA_MAX: string };
export declare function isBuilt(): boolean;
export declare function serveArgs(options?: { requireBuilt?: boolean }): string[];
