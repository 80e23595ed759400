import { defineConfig } from 'drizzle-kit';

// Migrations are generated, never pushed: `drizzle-kit generate` (plus `--custom` for SQL
// Drizzle cannot express). They are applied at start by src/server/db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './db/migrations',
});
