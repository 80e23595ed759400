import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/**
 * Pages that editors change in Markdown without touching code: `src/content/pages/<slug>.md`
 * (Japanese, the default) and optionally `<slug>.<locale>.md` for another language.
 */
const pages = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/pages' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().optional(),
    updated: z.coerce.date().optional(),
  }),
});

export const collections = { pages };
