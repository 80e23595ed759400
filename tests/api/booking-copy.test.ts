/**
 * The booking form's words, on the plain-HTML path (no JavaScript): ご要望 over the contract's limit
 * is refused with the field's error and the text kept as typed (never cut short), with the counter
 * beside it; a start left unpicked asks to choose (選択してください); the name's error is the label's
 * word (お名前).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../helpers/app';
import { NOTE_MAX } from '../../src/lib/contract/limits';
import { startWithFixture, tokyoStart, type Fixture } from './booking-fixtures';

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`booking form copy [${engine}]`, () => {
    let app: App;
    let fx: Fixture;
    let cleanup: () => Promise<void>;
    const contact = { name: '山田 花子', name_kana: 'ヤマダ ハナコ', phone: '090-1234-5678', email: 'copy@example.jp', remember: '' };
    const fields = () => ({ intent: 'book', date: tokyoStart(4, 12).slice(0, 10), start: tokyoStart(4, 20), party_size: '2', seat_preference: '', note: '' });

    /** The form posted as a browser without JavaScript does, in Japanese. */
    const post = (form: Record<string, string>) =>
      app.fetch(`/store/${fx.storeId}/booking-without`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ja', origin: app.url },
        body: new URLSearchParams(form).toString(),
      });

    beforeAll(async () => {
      ({ app, fx, cleanup } = await startWithFixture(engine));
    });
    afterAll(() => cleanup?.());

    it('refuses a ご要望 one over the limit with its error, keeping every character, the counter showing it', async () => {
      const note = `${'あ'.repeat(NOTE_MAX)}終`;
      const res = await post({ ...fields(), ...contact, note });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain(`>${note}</textarea>`);
      expect(html).toContain(`ご要望は${NOTE_MAX}文字以内`);
      expect(html).toContain(`${NOTE_MAX + 1} / ${NOTE_MAX}文字`);
      // The browser is not told to cut the text: no maxlength on the field.
      expect(html).not.toMatch(/<textarea[^>]*name="note"[^>]*maxlength/);
    });

    it('asks to choose a start and names お名前 as the label does', async () => {
      const res = await post({ ...fields(), ...contact, start: '', name: '' });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('開始時刻を選択してください');
      expect(html).toContain('お名前を入力してください');
      expect(html).not.toContain('氏名');
    });
  });
}
