/**
 * 特定商取引法に基づく表記 (/ecommerce) shows the operator's phone number from the configuration
 * (OPERATOR_PHONE), and says so plainly while it is still the placeholder.
 */
import { expect, it } from 'vitest';
import { forEachApp } from '../helpers/app';

forEachApp(
  'legal notice, placeholder phone',
  (app) => {
    it('shows the placeholder with a notice that it is one', async () => {
      const res = await app().fetch('/ecommerce', { headers: { 'accept-language': 'ja' } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('03-0000-0000（受付時間 平日10:00〜18:00）');
      expect(html).toMatch(/<p[^>]*data-placeholder-phone[^>]*>\s*この電話番号は仮のものです。/);
      expect(html).not.toContain('{{operator_phone}}');
    });
  },
  {},
  { shared: true },
);

forEachApp(
  'legal notice, configured phone',
  (app) => {
    it('shows the configured number, escaped, and no notice', async () => {
      const html = await (await app().fetch('/ecommerce', { headers: { 'accept-language': 'ja' } })).text();
      expect(html).toContain('03-6555-0123（受付時間 平日10:00〜18:00）');
      expect(html).not.toContain('03-0000-0000');
      expect(html).not.toContain('data-placeholder-phone');
    });
  },
  { OPERATOR_PHONE: '03-6555-0123' },
);
