import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Two cores shared by several test runs: give findBy* more than the default second.
configure({ asyncUtilTimeout: 4000 });

// No vitest globals here, so Testing Library's automatic cleanup is registered by hand.
afterEach(() => cleanup());
