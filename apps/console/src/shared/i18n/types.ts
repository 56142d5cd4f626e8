/** The Spanish dictionary must have exactly the English one's keys (the compiler checks; i18n.test.ts too). */
export type Dictionary<T> = { [K in keyof T]: T[K] extends string ? string : Dictionary<T[K]> };
