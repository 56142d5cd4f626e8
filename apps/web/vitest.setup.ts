import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// No vitest globals here, so Testing Library's automatic cleanup is registered by hand.
afterEach(() => cleanup());
