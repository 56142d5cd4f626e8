export declare const ROOT: string;
export declare const BUILT: string;
export declare const V8_FLAGS: string[];
export declare function isBuilt(): boolean;
export declare function serveArgs(options?: { requireBuilt?: boolean }): string[];
