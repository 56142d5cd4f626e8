export * from './ids.js';
export * from './amounts.js';
export * from './payments.js';
export * from './api.js';
export * from './auth.js';
export * from './admin.js';
export * from './app-config.js';
export * from './messaging.js';
