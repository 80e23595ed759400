/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Astro's Vite config, so tests resolve `astro:*` modules and JSON globs as the app does.
export default getViteConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        // Vitest's default on two cores is one worker, and a project at one worker has its files
        // run after every other project's, one by one: the unit files waited for the last API
        // file. At the API project's two they share its queue.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', maxWorkers: 2 },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/global-setup.ts'],
          // Each file opens its own databases; two at a time suits a 2-core machine.
          maxWorkers: 2,
        },
      },
    ],
  },
});
